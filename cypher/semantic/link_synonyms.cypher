// SYNONYM edges between similar entities, stored once per pair (from the smaller id).
// params: $space, $rows
// returns: linked
UNWIND $rows AS row
MATCH (a:Entity {space: $space, id: row.a})
MATCH (b:Entity {space: $space, id: row.b})
MERGE (a)-[r:SYNONYM]->(b)
SET r.score = row.score
RETURN count(r) AS linked
