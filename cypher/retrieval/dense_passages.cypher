// Dense retrieval: nearest passages of one space by the vector index. The index spans every
// space, so $fetch over-fetches (fetch >= k) before the space filter.
// params: $space, $embedding, $k, $fetch
// returns: id, score
CALL db.index.vector.queryNodes('passage_embedding', $fetch, $embedding) YIELD node, score
WITH node, score
WHERE node.space = $space
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $k
