// The weighted edges of a projected semantic graph as GDS holds them (an undirected edge
// appears once per direction): the reference check compares PageRank against networkx.
// params: $graph
// returns: source, target, weight
CALL gds.graph.relationshipProperty.stream($graph, 'weight')
YIELD sourceNodeId, targetNodeId, propertyValue
RETURN sourceNodeId AS source, targetNodeId AS target, propertyValue AS weight
