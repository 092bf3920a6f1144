// Uniqueness of (Insight) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT insight_key IF NOT EXISTS FOR (n:Insight) REQUIRE (n.space, n.id) IS UNIQUE
