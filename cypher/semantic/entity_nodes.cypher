// Node ids of every entity of the space, the most mentioned first: the seeds whose PageRank
// runs a prepared retriever keeps (graphmem.semantic.seed_cache, ppr_cache = warm), as many
// as its memory allows.
// params: $space
// returns: node, mentions
MATCH (e:Entity {space: $space})
RETURN id(e) AS node, COUNT { (e)<-[:MENTIONS]-() } AS mentions
ORDER BY mentions DESC, node
