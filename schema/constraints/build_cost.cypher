// Uniqueness of (BuildCost) per space: one ledger node per builder (id = builder name).
// params: none
// returns: none
CREATE CONSTRAINT build_cost_key IF NOT EXISTS FOR (n:BuildCost) REQUIRE (n.space, n.id) IS UNIQUE
