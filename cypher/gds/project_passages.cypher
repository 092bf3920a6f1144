// Project the passages of one space and their NEXT chain as an undirected in-memory graph
// (Cypher aggregation projection: only this space takes part).
// params: $space, $graph
// returns: projection (map: graphName, nodeCount, relationshipCount, ...)
MATCH (a:Passage {space: $space})
OPTIONAL MATCH (a)-[:NEXT]->(b:Passage {space: $space})
RETURN gds.graph.project($graph, a, b, {}, {undirectedRelationshipTypes: ['*']}) AS projection
