// Every entity of the space with its embedding, for the build's nearest-entity searches
// (entity resolution, synonym edges): ranked in memory by exact cosine
// (graphmem.retrieval.exact.ExactIndex), so a search costs what the space holds, not the
// over-fetch a vector index spanning every space needs.
// params: $space
// returns: id, key, embedding
MATCH (node:Entity {space: $space})
RETURN node.id AS id, node.key AS key, node.embedding AS embedding
ORDER BY id
