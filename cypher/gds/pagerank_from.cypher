// Personalized PageRank on a named in-memory graph from source nodes
// ($sources: a list of node ids).
// params: $graph, $sources, $damping
// returns: node_id, score
CALL gds.pageRank.stream($graph, {sourceNodes: $sources, dampingFactor: $damping})
YIELD nodeId, score
RETURN nodeId AS node_id, score
ORDER BY score DESC
LIMIT 100
