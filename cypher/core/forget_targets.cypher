// The stored turns a forget names: every passage of the space, or of one conversation,
// whose turn id is one of $turns (all when $turns is empty), in the session $session
// (a session's id as the input gave it; any when null).
// params: $space, $conversation, $session, $turns
// returns: conversation, session, session_source, passage, turn, text, speaker, caption,
//   date_text
MATCH (p:Passage {space: $space})
WHERE ($conversation IS NULL OR p.conversation = $conversation)
  AND (size($turns) = 0 OR p.source_id IN $turns)
MATCH (s:Session {space: $space, id: p.session})
WHERE $session IS NULL OR s.source_id = $session
RETURN p.conversation AS conversation, s.id AS session, s.source_id AS session_source,
       p.id AS passage, p.source_id AS turn, p.text AS text, p.speaker AS speaker,
       p.caption AS caption, p.date_text AS date_text
ORDER BY conversation, s.index, p.turn_index
