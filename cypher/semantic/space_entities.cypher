// Every entity of one space with its projection node id, its embedding (null when it has
// none) and the number of passages mentioning it: a retriever's in-memory entity index.
// params: $space
// returns: id, node_id, name, embedding, passages
MATCH (e:Entity {space: $space})
RETURN e.id AS id, id(e) AS node_id, e.name AS name, e.embedding AS embedding,
       COUNT { (e)<-[:MENTIONS]-(:Passage) } AS passages
ORDER BY id
