// Node ids of every entity of the space: the seeds whose PageRank runs a prepared retriever
// keeps (graphmem.semantic.seed_cache, ppr_cache = warm).
// params: $space
// returns: node
MATCH (e:Entity {space: $space})
RETURN id(e) AS node
ORDER BY node
