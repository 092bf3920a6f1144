// Facts most similar to any of the query vectors (max cosine over vectors), with their
// subject and object entities (projection node ids, number of passages mentioning each)
// and source passages.
// params: $space, $vectors, $fetch, $k
// returns: id, text, cosine, entities, sources
UNWIND $vectors AS vector
CALL db.index.vector.queryNodes('fact_embedding', $fetch, vector) YIELD node, score
WITH node AS f, max(2 * score - 1) AS cosine
WHERE f.space = $space
WITH f, cosine
ORDER BY cosine DESC
LIMIT $k
CALL {
  WITH f
  MATCH (f)-[:SUBJECT|OBJECT]->(e:Entity)
  RETURN collect(DISTINCT {id: e.id, node_id: id(e), name: e.name,
                           passages: COUNT { (e)<-[:MENTIONS]-(:Passage) }}) AS entities
}
CALL {
  WITH f
  MATCH (f)-[:FROM]->(p:Passage)
  WITH p
  ORDER BY p.session_index, p.turn_index
  RETURN collect(p {@passage}) AS sources
}
RETURN f.id AS id, f.text AS text, cosine, entities, sources
ORDER BY cosine DESC
