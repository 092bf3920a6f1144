// Sessions of a conversation that a builder has not completed yet (resumable building).
// params: $space, $conversation_id, $builder
// returns: session_id, index
MATCH (s:Session {space: $space, conversation: $conversation_id})
WHERE NOT $builder IN coalesce(s.built_by, [])
RETURN s.id AS session_id, s.index AS index
ORDER BY index
