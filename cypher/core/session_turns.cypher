// The stored turns of some sessions, to rebuild sessions that are not in the current input
// (a rewritten session made derived nodes of earlier sessions stale).
// params: $space, $session_ids
// returns: session_id, index, source_id, started_at, date_text, turns
UNWIND $session_ids AS sid
MATCH (s:Session {space: $space, id: sid})
MATCH (p:Passage {space: $space, session: sid})
WITH s, p ORDER BY p.turn_index
RETURN s.id AS session_id, s.index AS index, s.source_id AS source_id,
       s.started_at AS started_at, s.date_text AS date_text,
       collect({source_id: p.source_id, speaker: p.speaker, text: p.text, caption: p.caption,
                ts: p.ts, turn_index: p.turn_index}) AS turns
ORDER BY index
