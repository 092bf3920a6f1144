// The session `graphmem add` appends to: the one named ($source_id), else the
// conversation's latest (highest index); no row when there is none.
// params: $space, $conversation_id, $source_id
// returns: id, source_id, index
MATCH (s:Session {space: $space, conversation: $conversation_id})
WHERE $source_id IS NULL OR s.source_id = $source_id
RETURN s.id AS id, s.source_id AS source_id, s.index AS index
ORDER BY s.index DESC
LIMIT 1
