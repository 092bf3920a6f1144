// GDS node ids (internal ids) of passages, for PageRank source nodes.
// params: $space, $ids
// returns: id, node_id
UNWIND $ids AS key
MATCH (n:Passage {space: $space, id: key})
RETURN key AS id, id(n) AS node_id
