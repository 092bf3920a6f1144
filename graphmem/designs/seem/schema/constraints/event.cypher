// Uniqueness of (Event) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT event_key IF NOT EXISTS FOR (n:Event) REQUIRE (n.space, n.id) IS UNIQUE
