// A speaker is also a phrase node: (:Speaker:Character)-[:IS]->(:Entity).
// params: $space, $rows
// returns: linked
UNWIND $rows AS row
MATCH (c:Speaker {space: $space, id: row.speaker_id})
MATCH (e:Entity {space: $space, id: row.entity_id})
MERGE (c)-[:IS]->(e)
RETURN count(*) AS linked
