// Lucene BM25 retrieval over passage text, captions and speaker (english analyzer), one space.
// $query requires the space inside Lucene (retrieval.passages.space_lucene_query); the index
// spans every space and that clause can match similar names, so the exact space filter and
// the $fetch over-fetch stay.
// params: $space, $query, $k, $fetch
// returns: passage, score
CALL db.index.fulltext.queryNodes('passage_search', $query, {limit: $fetch}) YIELD node, score
WITH node AS p, score
WHERE p.space = $space
RETURN p {@passage} AS passage, score
ORDER BY score DESC
LIMIT $k
