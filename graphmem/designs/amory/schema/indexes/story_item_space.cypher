// Range index on StoryItem.space: statements that match the StoryItem nodes of one space
// (`MATCH (n:StoryItem {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every StoryItem of every space.
// params: none
// returns: none
CREATE INDEX story_item_space IF NOT EXISTS FOR (n:StoryItem) ON (n.space)
