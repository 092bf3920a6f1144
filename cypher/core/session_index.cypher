// The index of a session by its source id, or the next free index of the conversation.
// params: $space, $conversation_id, $source_id
// returns: index
OPTIONAL MATCH (o:Session {space: $space, conversation: $conversation_id})
WITH max(o.index) AS top
OPTIONAL MATCH (s:Session {space: $space, conversation: $conversation_id, source_id: $source_id})
RETURN coalesce(s.index, coalesce(top, -1) + 1) AS index
