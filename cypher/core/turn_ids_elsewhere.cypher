// Which of some turn ids the conversation's other sessions already use (a turn id names one
// turn of a conversation: citations and evidence refer to it).
// params: $space, $conversation_id, $source_id, $ids
// returns: turn, session
MATCH (s:Session {space: $space, conversation: $conversation_id})
WHERE s.source_id <> $source_id
MATCH (p:Passage {space: $space, session: s.id})
WHERE p.source_id IN $ids
RETURN p.source_id AS turn, s.source_id AS session
ORDER BY turn
LIMIT 1
