// Uniqueness of (Session) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT session_key IF NOT EXISTS FOR (n:Session) REQUIRE (n.space, n.id) IS UNIQUE
