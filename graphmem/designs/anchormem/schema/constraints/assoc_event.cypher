// Uniqueness of (AssocEvent) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT assoc_event_key IF NOT EXISTS FOR (n:AssocEvent) REQUIRE (n.space, n.id) IS UNIQUE
