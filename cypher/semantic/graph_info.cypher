// Size of a named in-memory graph; no row when it does not exist.
// params: $graph
// returns: nodes, relationships
CALL gds.graph.list($graph) YIELD nodeCount, relationshipCount
RETURN nodeCount AS nodes, relationshipCount AS relationships
