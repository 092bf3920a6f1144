// Every atomic fact of the space with its context and embedding, for the build's
// association step: each new fact's neighbours are ranked in memory by exact cosine
// (graphmem.retrieval.exact.ExactIndex), so the search costs what the space holds, not
// the over-fetch a vector index spanning every space needs.
// params: $space
// returns: id, context, embedding
MATCH (f:AtomicFact {space: $space})
RETURN f.id AS id, f.context AS context, f.embedding AS embedding
ORDER BY id
