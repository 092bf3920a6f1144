// The GDS node id of the first passage of a space (a PageRank source for benchmarks).
// params: $space
// returns: node_id
MATCH (p:Passage {space: $space})
RETURN id(p) AS node_id
ORDER BY p.session_index, p.turn_index
LIMIT 1
