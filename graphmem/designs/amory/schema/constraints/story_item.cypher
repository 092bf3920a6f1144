// Uniqueness of (StoryItem) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT story_item_key IF NOT EXISTS FOR (n:StoryItem) REQUIRE (n.space, n.id) IS UNIQUE
