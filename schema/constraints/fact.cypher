// Uniqueness of (Fact) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT fact_key IF NOT EXISTS FOR (n:Fact) REQUIRE (n.space, n.id) IS UNIQUE
