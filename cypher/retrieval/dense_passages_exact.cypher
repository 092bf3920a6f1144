// Dense retrieval by exact cosine over the passages of one space. Used instead of the vector
// index when the space is small next to the whole database: scanning its passages is then
// cheaper than over-fetching from the global HNSW index.
// params: $space, $embedding, $k
// returns: passage, score
MATCH (p:Passage {space: $space})
WITH p, vector.similarity.cosine(p.embedding, $embedding) AS score
ORDER BY score DESC
LIMIT $k
RETURN p {@passage} AS passage, score
