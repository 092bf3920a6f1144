// The latest passage and session of a conversation before a session index (streaming
// appends chain NEXT from them).
// params: $space, $conversation_id, $before
// returns: id, session
MATCH (p:Passage {space: $space, conversation: $conversation_id})
WHERE p.session_index < $before
RETURN p.id AS id, p.session AS session
ORDER BY p.session_index DESC, p.turn_index DESC
LIMIT 1
