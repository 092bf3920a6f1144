// Every event frame of the space with its embedding, for the build's associative
// consolidation: each new frame's nearest stored frames are ranked in memory by exact
// cosine (graphmem.retrieval.exact.ExactIndex), so the search costs what the space holds,
// not the over-fetch a vector index spanning every space needs.
// params: $space
// returns: id, embedding
MATCH (node:EventFrame {space: $space})
RETURN node.id AS id, node.embedding AS embedding
ORDER BY id
