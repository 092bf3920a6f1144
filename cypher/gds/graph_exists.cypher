// Whether a named in-memory graph exists.
// params: $graph
// returns: exists
CALL gds.graph.exists($graph) YIELD exists
RETURN exists
