// Uniqueness of (Space) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT space_key IF NOT EXISTS FOR (n:Space) REQUIRE (n.space, n.id) IS UNIQUE
