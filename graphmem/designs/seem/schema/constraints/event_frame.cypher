// Uniqueness of (EventFrame) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT event_frame_key IF NOT EXISTS FOR (n:EventFrame) REQUIRE (n.space, n.id) IS UNIQUE
