// Nearest facts of each given fact in the same space, by exact cosine over the space's
// facts: used instead of `anchormem.fact_neighbours` when the index would have to over-fetch
// more nodes than the space holds. At most $k per fact; $min_score is tau on the
// (1 + cos) / 2 scale that vector.similarity.cosine and the index share.
// params: $space, $ids, $k, $min_score
// returns: id, seed_context, neighbour, context, score
UNWIND $ids AS fid
MATCH (f:AtomicFact {space: $space, id: fid})
CALL {
  WITH f, fid
  MATCH (node:AtomicFact {space: $space})
  WHERE node.id <> fid
  WITH node, vector.similarity.cosine(node.embedding, f.embedding) AS score
  WHERE score >= $min_score
  RETURN node, score
  ORDER BY score DESC, node.id
  LIMIT $k
}
RETURN fid AS id, f.context AS seed_context, node.id AS neighbour, node.context AS context, score
ORDER BY id, score DESC
