// Uniqueness of (Fragment) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT fragment_key IF NOT EXISTS FOR (n:Fragment) REQUIRE (n.space, n.id) IS UNIQUE
