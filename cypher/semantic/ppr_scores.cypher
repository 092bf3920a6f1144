// Personalized PageRank over the space's semantic graph from weighted seeds. GDS 2.13 takes
// sourceNodes without weights, so each group of equally weighted seeds is one run and the
// runs are added up, scaled by their weight: PageRank is linear in the personalisation.
// One row: the projection's creation time (so the caller knows the graph its snapshot was
// read with is still the one walked) and every node scored above 0, as two lists of the
// same order (node ids, scores: flat lists of numbers cross Bolt without the per-element
// conversion that [node, score] pairs cost, ~10 ms a query);
// the caller adds the passage seeds' restart mass and keeps the passages (a parameter map
// of ~600 priors and a label lookup per node here cost more than the PageRank runs).
// No row when the graph does not exist.
// logProgress off: GDS would log every iteration of every run at INFO (gigabytes a day).
// params: $graph, $groups, $damping, $iterations, $tolerance, $concurrency
// returns: created, nodes, scores
CALL gds.graph.list($graph) YIELD creationTime
WITH toString(creationTime) AS created
UNWIND $groups AS g
CALL gds.pageRank.stream($graph, {
  sourceNodes: g.nodes, dampingFactor: $damping, maxIterations: $iterations,
  tolerance: $tolerance, concurrency: $concurrency, relationshipWeightProperty: 'weight',
  logProgress: false
})
YIELD nodeId, score
WITH created, nodeId, sum(score * g.weight) AS score
WHERE score > 0
WITH created, collect([nodeId, score]) AS pairs
RETURN created, [p IN pairs | p[0]] AS nodes, [p IN pairs | p[1]] AS scores
