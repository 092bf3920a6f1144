// Personalized PageRank over the space's semantic graph from weighted seeds. GDS 2.13 takes
// sourceNodes without weights, so each group of equally weighted seeds is one run and the
// runs are added up, scaled by their weight: PageRank is linear in the personalisation.
// $prior (node id as a string -> score) adds passage seeds' restart mass without a run.
// params: $graph, $groups, $damping, $iterations, $tolerance, $concurrency, $prior, $k
// returns: id, node_id, score, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens
UNWIND $groups AS g
CALL gds.pageRank.stream($graph, {
  sourceNodes: g.nodes, dampingFactor: $damping, maxIterations: $iterations,
  tolerance: $tolerance, concurrency: $concurrency, relationshipWeightProperty: 'weight'
})
YIELD nodeId, score
WITH nodeId, sum(score * g.weight) AS score
WITH nodeId, score + coalesce($prior[toString(nodeId)], 0.0) AS score
WHERE score > 0
MATCH (p:Passage)
WHERE id(p) = nodeId
RETURN p.id AS id, nodeId AS node_id, score, p.source_id AS source_id, p.speaker AS speaker,
       p.text AS text, p.caption AS caption, p.ts AS ts, p.date_text AS date_text,
       p.session_index AS session_index, p.turn_index AS turn_index, p.tokens AS tokens
ORDER BY score DESC
LIMIT $k
