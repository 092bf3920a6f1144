// Lucene BM25 retrieval over passage text, captions and speaker (english analyzer), one space.
// The index spans every space, so $fetch over-fetches before the space filter.
// params: $space, $query, $k, $fetch
// returns: passage, score
CALL db.index.fulltext.queryNodes('passage_search', $query, {limit: $fetch}) YIELD node, score
WITH node AS p, score
WHERE p.space = $space
RETURN p {@passage} AS passage, score
ORDER BY score DESC
LIMIT $k
