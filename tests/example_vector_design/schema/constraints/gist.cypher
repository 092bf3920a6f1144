// Uniqueness of (Gist) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT gist_key IF NOT EXISTS FOR (n:Gist) REQUIRE (n.space, n.id) IS UNIQUE
