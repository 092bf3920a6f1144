// Every passage of one space with its projection node id and embedding: a retriever keeps
// this snapshot for as long as the space's projection it was read with exists.
// params: $space
// returns: node_id, embedding, id, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens
MATCH (p:Passage {space: $space})
RETURN id(p) AS node_id, p.embedding AS embedding, p.id AS id, p.source_id AS source_id,
       p.speaker AS speaker, p.text AS text, p.caption AS caption, p.ts AS ts,
       p.date_text AS date_text, p.session_index AS session_index,
       p.turn_index AS turn_index, p.tokens AS tokens
ORDER BY node_id
