// In-memory graphs whose name starts with a prefix, oldest first (the projection cap drops
// from the front).
// params: $prefix
// returns: graph, created
CALL gds.graph.list() YIELD graphName, creationTime
WITH graphName, creationTime WHERE graphName STARTS WITH $prefix
RETURN graphName AS graph, toString(creationTime) AS created
ORDER BY creationTime
