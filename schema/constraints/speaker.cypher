// Uniqueness of (Speaker) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT speaker_key IF NOT EXISTS FOR (n:Speaker) REQUIRE (n.space, n.id) IS UNIQUE
