// Uniqueness of (Narrative) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT narrative_key IF NOT EXISTS FOR (n:Narrative) REQUIRE (n.space, n.id) IS UNIQUE
