// Doctor probe: a small random in-memory graph (nothing is written to the database).
// params: $graph, $nodes
// returns: nodes, relationships
CALL gds.graph.generate($graph, $nodes, 3, {relationshipDistribution: 'POWER_LAW'})
YIELD nodes, relationships
RETURN nodes, relationships
