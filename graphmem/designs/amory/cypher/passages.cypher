// Turns by id with what an excerpt needs: text, speaker, date, position and embedding.
// params: $space, $ids
// returns: id, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens, embedding, conversation
UNWIND $ids AS pid
MATCH (p:Passage {space: $space, id: pid})
RETURN p.id AS id, p.source_id AS source_id, p.speaker AS speaker, p.text AS text,
       p.caption AS caption, p.ts AS ts, p.date_text AS date_text,
       p.session_index AS session_index, p.turn_index AS turn_index, p.tokens AS tokens,
       p.embedding AS embedding, p.conversation AS conversation
