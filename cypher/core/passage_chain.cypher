// Each passage of a conversation with the source id of the passage NEXT points to.
// params: $space, $conversation_id
// returns: source_id, next_source_id
MATCH (p:Passage {space: $space, conversation: $conversation_id})
OPTIONAL MATCH (p)-[:NEXT]->(n:Passage)
RETURN p.source_id AS source_id, n.source_id AS next_source_id
ORDER BY p.session_index, p.turn_index
