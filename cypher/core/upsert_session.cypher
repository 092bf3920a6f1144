// One session of a conversation; content_hash is set last, inside the same transaction.
// params: $space, $conversation_id, $session_id, $index, $source_id, $started_at, $date_text, $content_hash, $passages
// returns: session
MATCH (c:Conversation {space: $space, id: $conversation_id})
MERGE (s:Session {space: $space, id: $session_id})
SET s.index = $index, s.source_id = $source_id, s.started_at = $started_at,
    s.date_text = $date_text, s.content_hash = $content_hash, s.passages = $passages,
    s.conversation = $conversation_id, s.built_by = []
MERGE (s)-[:IN_CONVERSATION]->(c)
RETURN s.id AS session
