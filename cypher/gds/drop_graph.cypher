// Drop a named in-memory graph if it exists.
// params: $graph
// returns: graph
CALL gds.graph.drop($graph, false) YIELD graphName
RETURN graphName AS graph
