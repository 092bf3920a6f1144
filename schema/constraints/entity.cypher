// Uniqueness of (Entity) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT entity_key IF NOT EXISTS FOR (n:Entity) REQUIRE (n.space, n.id) IS UNIQUE
