// Nearest facts of each given fact in the same space, by the vector index. $fetch
// over-fetches (the index spans every space); $min_score is tau on the index's
// (1 + cos) / 2 scale.
// params: $space, $ids, $fetch, $min_score
// returns: id, seed_context, neighbour, context, score
UNWIND $ids AS fid
MATCH (f:AtomicFact {space: $space, id: fid})
CALL db.index.vector.queryNodes('atomic_fact_embedding', $fetch, f.embedding)
YIELD node, score
WITH fid, f, node, score
WHERE node.space = $space AND node.id <> fid AND score >= $min_score
RETURN fid AS id, f.context AS seed_context, node.id AS neighbour, node.context AS context, score
ORDER BY id, score DESC
