// In-memory graphs whose name starts with a prefix, with their size on the heap
// (benchmarks: GDS projection memory per space).
// params: $prefix
// returns: graph, nodes, relationships, bytes, memory
CALL gds.graph.list() YIELD graphName, nodeCount, relationshipCount, sizeInBytes, memoryUsage
WITH * WHERE graphName STARTS WITH $prefix
RETURN graphName AS graph, nodeCount AS nodes, relationshipCount AS relationships,
       sizeInBytes AS bytes, memoryUsage AS memory
ORDER BY graph
