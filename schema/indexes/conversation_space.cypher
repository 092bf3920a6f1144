// Range index on Conversation.space: statements that match the Conversation nodes of one space
// (`MATCH (n:Conversation {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Conversation of every space.
// params: none
// returns: none
CREATE INDEX conversation_space IF NOT EXISTS FOR (n:Conversation) ON (n.space)
