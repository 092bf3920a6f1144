// Turns of one conversation before a session index, in order, with their embeddings: the
// offline binder's running mean starts from them, and an LLM build whose conversation is
// still below T turns holds them again for initialisation.
// params: $space, $conversation, $before
// returns: id, session_index, embedding
MATCH (p:Passage {space: $space, conversation: $conversation})
WHERE p.session_index < $before
RETURN p.id AS id, p.session_index AS session_index, p.embedding AS embedding
ORDER BY p.session_index, p.turn_index
