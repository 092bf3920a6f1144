// The stored sessions of one conversation, by their source id: an input's sessions are
// placed after them (graphmem.ingest.stored.place_sessions).
// params: $space, $conversation_id
// returns: source_id, index
MATCH (s:Session {space: $space, conversation: $conversation_id})
RETURN s.source_id AS source_id, s.index AS index
ORDER BY index
