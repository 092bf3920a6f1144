// Passage -[:MENTIONS]-> entity for every phrase a passage mentions.
// params: $space, $rows
// returns: linked
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id})
UNWIND row.entity_ids AS eid
MATCH (e:Entity {space: $space, id: eid})
MERGE (p)-[:MENTIONS]->(e)
RETURN count(*) AS linked
