// SYNONYM edges between similar entities, stored once per pair (from the smaller id), and
// the end of the synonym pass of the entities in $done (their `synonyms_pending` mark goes,
// in the same statement: a pass is stored whole or not at all).
// params: $space, $rows, $done
// returns: linked
CALL {
  UNWIND $done AS id
  MATCH (e:Entity {space: $space, id: id})
  REMOVE e.synonyms_pending
  RETURN count(e) AS cleared
}
WITH cleared
UNWIND $rows AS row
MATCH (a:Entity {space: $space, id: row.a})
MATCH (b:Entity {space: $space, id: row.b})
MERGE (a)-[r:SYNONYM]->(b)
SET r.score = row.score
RETURN count(r) AS linked
