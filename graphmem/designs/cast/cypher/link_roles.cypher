// The stream's character in each of its scenes, with its role (MC: speaks a view of it).
// params: $space, $rows
// returns: linked
UNWIND $rows AS row
MATCH (s:Scene {space: $space, id: row.id})
MATCH (c:Character {space: $space, id: row.owner_id})
MERGE (c)-[r:IN_SCENE]->(s)
SET r.role = row.role
RETURN count(r) AS linked
