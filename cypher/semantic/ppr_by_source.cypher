// One Personalized PageRank per source node, each restricted to the target nodes: the
// exact passage seeds of the paper preset are precomputed per projection with this (the
// weighted sum of these rows is the PageRank of the weighted passage restart vector). One
// row per source, its scores empty when its run reaches no target (a space of one fact),
// so the projection's creation time always comes back with the runs.
// params: $graph, $sources, $targets, $damping, $iterations, $tolerance, $concurrency
// returns: created, source, scores
CALL gds.graph.list($graph) YIELD creationTime
WITH toString(creationTime) AS created
UNWIND $sources AS source
CALL (source) {
  CALL gds.pageRank.stream($graph, {
    sourceNodes: [source], dampingFactor: $damping, maxIterations: $iterations,
    tolerance: $tolerance, concurrency: $concurrency, relationshipWeightProperty: 'weight',
    logProgress: false
  })
  YIELD nodeId, score
  WITH nodeId, score
  WHERE score > 0 AND nodeId IN $targets
  RETURN collect([nodeId, score]) AS scores
}
RETURN created, source, scores
