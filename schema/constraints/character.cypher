// Uniqueness of (Character) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT character_key IF NOT EXISTS FOR (n:Character) REQUIRE (n.space, n.id) IS UNIQUE
