// dense_seeds by exact cosine over the passages of one space: used when the space is small
// next to the whole database (scanning it is cheaper than over-fetching the global index).
// vector.similarity.cosine is scaled like the index, (1 + cos) / 2: converted back.
// params: $space, $embedding, $k
// returns: id, node_id, score, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens
MATCH (p:Passage {space: $space})
WITH p, 2 * vector.similarity.cosine(p.embedding, $embedding) - 1 AS score
ORDER BY score DESC
LIMIT $k
RETURN p.id AS id, id(p) AS node_id, score, p.source_id AS source_id,
       p.speaker AS speaker, p.text AS text, p.caption AS caption, p.ts AS ts,
       p.date_text AS date_text, p.session_index AS session_index,
       p.turn_index AS turn_index, p.tokens AS tokens
