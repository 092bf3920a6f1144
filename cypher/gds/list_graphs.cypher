// Names of the in-memory graphs whose name starts with a prefix.
// params: $prefix
// returns: graph
CALL gds.graph.list() YIELD graphName
WITH graphName WHERE graphName STARTS WITH $prefix
RETURN graphName AS graph
