// GDS k-nearest neighbours of SEEM event frames by their embeddings (top 2 per frame).
// params: $space
// returns: frame, similar_frame, similarity
MATCH (f:EventFrame {space: $space})
WITH gds.graph.project('analyst-knn-frames-' + randomUUID(), f, null,
                       {sourceNodeProperties: f {.embedding}, targetNodeProperties: {}}) AS g
WHERE g IS NOT NULL
CALL gds.knn.stream(g.graphName, {nodeProperties: ['embedding'], topK: 2,
                                  randomSeed: 42, concurrency: 1})
  YIELD node1, node2, similarity
WITH g, collect([node1, node2, similarity]) AS pairs
CALL gds.graph.drop(g.graphName, false) YIELD graphName
UNWIND pairs AS pair
WITH gds.util.asNode(pair[0]) AS a, gds.util.asNode(pair[1]) AS b, pair[2] AS similarity
WITH CASE WHEN a.summary <= b.summary THEN [a, b] ELSE [b, a] END AS ab, similarity
RETURN DISTINCT ab[0].summary AS frame, ab[1].summary AS similar_frame,
       round(similarity, 3) AS similarity
ORDER BY similarity DESC, frame
