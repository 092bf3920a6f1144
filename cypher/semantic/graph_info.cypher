// Size and creation time of a named in-memory graph; no row when it does not exist.
// params: $graph
// returns: nodes, relationships, created
CALL gds.graph.list($graph) YIELD nodeCount, relationshipCount, creationTime
RETURN nodeCount AS nodes, relationshipCount AS relationships, toString(creationTime) AS created
