// Facts about an entity (as subject or object, synonyms included) with the turns they come
// from, in conversation order.
// params: $space, $entity
// returns: fact, relation, time, role, source_id, speaker, turn
// example: {"entity": "Biscuit"}
MATCH (e:Entity {space: $space})
WHERE toLower(e.name) = toLower($entity) OR toLower($entity) IN [a IN coalesce(e.aliases, []) | toLower(a)]
OPTIONAL MATCH (e)-[:SYNONYM]-(syn:Entity)
WITH collect(DISTINCT e) + collect(DISTINCT syn) AS names
UNWIND names AS n
MATCH (f:Fact {space: $space})-[r:SUBJECT|OBJECT]->(n)
MATCH (f)-[:FROM]->(p:Passage)
WITH DISTINCT f, toLower(type(r)) AS role, p
RETURN f.text AS fact, f.relation AS relation, f.time AS time, role,
       p.source_id AS source_id, p.speaker AS speaker, p.text AS turn
ORDER BY p.session_index, p.turn_index, fact
