// Nearest entities of the space for each row's embedding, by exact cosine over the space's
// entities: used instead of `semantic.entity_neighbours` when the index would have to
// over-fetch more nodes than the space holds (a young space in a large database).
// vector.similarity.cosine is (1 + cos) / 2, as the index scores; cosine is the plain cosine.
// params: $space, $rows, $k
// returns: key, id, node_id, entity_key, name, cosine, passages
UNWIND $rows AS row
CALL {
  WITH row
  MATCH (node:Entity {space: $space})
  WITH node, vector.similarity.cosine(node.embedding, row.embedding) AS score
  ORDER BY score DESC, node.id
  LIMIT $k
  RETURN node, score
}
RETURN row.key AS key, node.id AS id, id(node) AS node_id, node.key AS entity_key,
       node.name AS name, 2 * score - 1 AS cosine, COUNT { (node)<-[:MENTIONS]-(:Passage) } AS passages
