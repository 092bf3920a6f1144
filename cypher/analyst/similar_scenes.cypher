// CAST + GDS: k-nearest neighbours of scenes by their embeddings (top 2 per scene).
// params: $space
// returns: scene, similar_scene, similarity
// requires: Scene
MATCH (s:Scene {space: $space})
WHERE s.embedding IS NOT NULL
WITH gds.graph.project('analyst-knn-scenes-' + randomUUID(), s, null,
                       {sourceNodeProperties: s {.embedding}, targetNodeProperties: {}}) AS g
WHERE g IS NOT NULL
CALL gds.knn.stream(g.graphName, {nodeProperties: ['embedding'], topK: 2,
                                  randomSeed: 42, concurrency: 1})
  YIELD node1, node2, similarity
WITH g, collect([node1, node2, similarity]) AS pairs
CALL gds.graph.drop(g.graphName, false) YIELD graphName
UNWIND pairs AS pair
WITH gds.util.asNode(pair[0]) AS a, gds.util.asNode(pair[1]) AS b, pair[2] AS similarity
WITH CASE WHEN a.summary <= b.summary THEN [a, b] ELSE [b, a] END AS ab, similarity
RETURN DISTINCT ab[0].summary AS scene, ab[1].summary AS similar_scene,
       round(similarity, 3) AS similarity
ORDER BY similarity DESC, scene
