// Nearest entities of the space for each row's embedding (entity resolution, synonym edges,
// query phrase matching). The index spans every space: $fetch over-fetches before the space
// filter. Neo4j scores cosine as (1 + cos) / 2; cosine is the plain cosine.
// params: $space, $rows, $fetch, $k
// returns: key, id, node_id, entity_key, name, cosine, passages
UNWIND $rows AS row
CALL {
  WITH row
  CALL db.index.vector.queryNodes('entity_embedding', $fetch, row.embedding) YIELD node, score
  WITH node, score
  WHERE node.space = $space
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
RETURN row.key AS key, node.id AS id, id(node) AS node_id, node.key AS entity_key,
       node.name AS name, 2 * score - 1 AS cosine, COUNT { (node)<-[:MENTIONS]-(:Passage) } AS passages
