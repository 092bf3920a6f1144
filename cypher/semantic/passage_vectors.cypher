// Every passage embedding of one space with its projection node id: the retriever scores
// all passages of the space against the query exactly, in memory (HippoRAG 2's passage
// seeds), instead of asking the global index for the space's share of it.
// params: $space
// returns: node_id, embedding
MATCH (p:Passage {space: $space})
RETURN id(p) AS node_id, p.embedding AS embedding
ORDER BY node_id
