// Doctor probe: Personalized PageRank from one source node on the probe graph.
// params: $graph
// returns: top_node, top_score
CALL gds.pageRank.stream($graph, {sourceNodes: [0], dampingFactor: 0.5})
YIELD nodeId, score
RETURN nodeId AS top_node, score AS top_score
ORDER BY top_score DESC
LIMIT 1
