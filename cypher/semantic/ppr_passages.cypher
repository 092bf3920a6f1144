// Personalized PageRank over the space's semantic graph from weighted seeds. GDS 2.13 takes
// sourceNodes without weights, so each group of equally weighted seeds is one run and the
// runs are added up, scaled by their weight: PageRank is linear in the personalisation.
// $prior (node id as a string -> score) adds passage seeds' restart mass without a run.
// logProgress off: GDS would log every iteration of every run at INFO (gigabytes a day).
// params: $graph, $groups, $damping, $iterations, $tolerance, $concurrency, $prior, $k
// returns: node_id, score
UNWIND $groups AS g
CALL gds.pageRank.stream($graph, {
  sourceNodes: g.nodes, dampingFactor: $damping, maxIterations: $iterations,
  tolerance: $tolerance, concurrency: $concurrency, relationshipWeightProperty: 'weight',
  logProgress: false
})
YIELD nodeId, score
WITH nodeId, sum(score * g.weight) AS score
WITH nodeId, score + coalesce($prior[toString(nodeId)], 0.0) AS score
WHERE score > 0
MATCH (p:Passage)
WHERE id(p) = nodeId
RETURN nodeId AS node_id, score
ORDER BY score DESC
LIMIT $k
