// Dense passage scores for PageRank seeds and the fallback ranking: nearest passages of one
// space, with their projection node ids. $fetch over-fetches before the space filter.
// params: $space, $embedding, $k, $fetch
// returns: id, node_id, score, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens
CALL db.index.vector.queryNodes('passage_embedding', $fetch, $embedding) YIELD node, score
WITH node AS p, score
WHERE p.space = $space
RETURN p.id AS id, id(p) AS node_id, 2 * score - 1 AS score, p.source_id AS source_id,
       p.speaker AS speaker, p.text AS text, p.caption AS caption, p.ts AS ts,
       p.date_text AS date_text, p.session_index AS session_index,
       p.turn_index AS turn_index, p.tokens AS tokens
ORDER BY score DESC
LIMIT $k
