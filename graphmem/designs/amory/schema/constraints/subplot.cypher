// Uniqueness of (Subplot) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT subplot_key IF NOT EXISTS FOR (n:Subplot) REQUIRE (n.space, n.id) IS UNIQUE
