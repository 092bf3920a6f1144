// Every passage embedding of one space, for brute-force comparisons (benchmarks).
// params: $space
// returns: id, source_id, embedding
MATCH (p:Passage {space: $space})
RETURN p.id AS id, p.source_id AS source_id, p.embedding AS embedding
ORDER BY p.id
