// Dense retrieval: nearest passages of one space by the vector index. The index spans every
// space, so $fetch over-fetches (fetch >= k) before the space filter.
// params: $space, $embedding, $k, $fetch
// returns: passage, score
CALL db.index.vector.queryNodes('passage_embedding', $fetch, $embedding) YIELD node, score
WITH node AS p, score
WHERE p.space = $space
RETURN p {@passage} AS passage, score
ORDER BY score DESC
LIMIT $k
