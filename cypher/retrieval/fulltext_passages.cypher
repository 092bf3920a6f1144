// Lucene BM25 retrieval over passage text, captions and speaker (english analyzer), one space.
// The index spans every space, so $fetch over-fetches before the space filter.
// params: $space, $query, $k, $fetch
// returns: id, score, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens
CALL db.index.fulltext.queryNodes('passage_search', $query, {limit: $fetch}) YIELD node, score
WITH node AS p, score
WHERE p.space = $space
RETURN p.id AS id, score, p.source_id AS source_id, p.speaker AS speaker, p.text AS text,
       p.caption AS caption, p.ts AS ts, p.date_text AS date_text,
       p.session_index AS session_index, p.turn_index AS turn_index, p.tokens AS tokens
ORDER BY score DESC
LIMIT $k
