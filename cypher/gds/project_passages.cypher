// Project the passages of one space and their NEXT chain as an undirected in-memory graph
// (Cypher aggregation projection: only this space takes part; one reading thread keeps
// the graph small, see semantic/project.cypher).
// params: $space, $graph
// returns: projection (map: graphName, nodeCount, relationshipCount, ...)
MATCH (a:Passage {space: $space})
OPTIONAL MATCH (a)-[:NEXT]->(b:Passage {space: $space})
RETURN gds.graph.project($graph, a, b, {}, {undirectedRelationshipTypes: ['*'], readConcurrency: 1}) AS projection
