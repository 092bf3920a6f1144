// The stored scenes of some characters' streams, one row per member view, in creation
// order and then time order: Algorithm 1 continues from them.
// params: $space, $owners
// returns: scene_id, owner, seq, view_id, t, place, speaker, participants, session_index, turn_index, line, line_tokens, filler, date_text, embedding
MATCH (s:Scene {space: $space})-[:HAS_VIEW]->(v:View)
WHERE s.character IN $owners
RETURN s.id AS scene_id, s.character AS owner, s.seq AS seq, v.id AS view_id, v.t AS t,
       v.location AS place, v.speaker AS speaker, v.participants AS participants,
       v.session_index AS session_index, v.turn_index AS turn_index, v.line AS line,
       v.line_tokens AS line_tokens, v.filler AS filler, v.date_text AS date_text,
       v.embedding AS embedding
ORDER BY owner, seq, t, session_index, turn_index
