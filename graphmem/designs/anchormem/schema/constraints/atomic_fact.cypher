// Uniqueness of (AtomicFact) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT atomic_fact_key IF NOT EXISTS FOR (n:AtomicFact) REQUIRE (n.space, n.id) IS UNIQUE
