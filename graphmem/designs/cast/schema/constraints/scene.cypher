// Uniqueness of (Scene) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT scene_key IF NOT EXISTS FOR (n:Scene) REQUIRE (n.space, n.id) IS UNIQUE
