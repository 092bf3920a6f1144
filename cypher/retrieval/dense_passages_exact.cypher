// Dense retrieval by exact cosine over the passages of one space. Used instead of the vector
// index when the space is small next to the whole database: scanning its passages is then
// cheaper than over-fetching from the global HNSW index.
// params: $space, $embedding, $k
// returns: id, score, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens
MATCH (p:Passage {space: $space})
WITH p, vector.similarity.cosine(p.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $k
RETURN p.id AS id, score, p.source_id AS source_id, p.speaker AS speaker, p.text AS text,
       p.caption AS caption, p.ts AS ts, p.date_text AS date_text,
       p.session_index AS session_index, p.turn_index AS turn_index, p.tokens AS tokens
