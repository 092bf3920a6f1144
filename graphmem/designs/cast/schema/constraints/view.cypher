// Uniqueness of (View) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT view_key IF NOT EXISTS FOR (n:View) REQUIRE (n.space, n.id) IS UNIQUE
