// The gists of the space nearest the question through the (global) vector index, asked for
// $fetch nodes so that about $k survive the space filter (graphmem.graph.overfetch).
// params: $space, $embedding, $fetch, $k
// returns: id, text, score, passages
CALL db.index.vector.queryNodes('gist_embedding', $fetch, $embedding) YIELD node, score
WITH node, score
WHERE node.space = $space
ORDER BY score DESC, node.id
LIMIT $k
MATCH (node)-[:FROM]->(p:Passage {space: $space})
RETURN node.id AS id, node.text AS text, score, collect(p {@passage}) AS passages
ORDER BY score DESC, id
