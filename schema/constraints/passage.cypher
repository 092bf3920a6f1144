// Uniqueness of (Passage) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT passage_key IF NOT EXISTS FOR (n:Passage) REQUIRE (n.space, n.id) IS UNIQUE
