// One Personalized PageRank per source node, each restricted to the target nodes: the
// exact passage seeds of the paper preset are precomputed per projection with this (the
// weighted sum of these rows is the PageRank of the weighted passage restart vector).
// params: $graph, $sources, $targets, $damping, $iterations, $tolerance, $concurrency
// returns: created, source, scores
CALL gds.graph.list($graph) YIELD creationTime
WITH toString(creationTime) AS created
UNWIND $sources AS source
CALL gds.pageRank.stream($graph, {
  sourceNodes: [source], dampingFactor: $damping, maxIterations: $iterations,
  tolerance: $tolerance, concurrency: $concurrency, relationshipWeightProperty: 'weight',
  logProgress: false
})
YIELD nodeId, score
WITH created, source, nodeId, score
WHERE score > 0 AND nodeId IN $targets
RETURN created, source, collect([nodeId, score]) AS scores
