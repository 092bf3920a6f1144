// GDS node ids (internal ids) of graphmem nodes, for PageRank source nodes.
// params: $space, $ids
// returns: id, node_id
UNWIND $ids AS key
MATCH (n {space: $space, id: key})
RETURN key AS id, id(n) AS node_id
