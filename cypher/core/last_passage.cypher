// The latest passage of a conversation (streaming appends chain NEXT from it).
// params: $space, $conversation_id
// returns: id, session_index, turn_index
MATCH (p:Passage {space: $space, conversation: $conversation_id})
RETURN p.id AS id, p.session_index AS session_index, p.turn_index AS turn_index
ORDER BY session_index DESC, turn_index DESC
LIMIT 1
