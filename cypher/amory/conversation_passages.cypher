// Turn ids of one conversation before a session index, in order: the turns an LLM build
// still holds for initialisation when the conversation has fewer than T turns so far.
// params: $space, $conversation, $before
// returns: id, session_index
MATCH (p:Passage {space: $space, conversation: $conversation})
WHERE p.session_index < $before
RETURN p.id AS id, p.session_index AS session_index
ORDER BY p.session_index, p.turn_index
