// A character profile is its scenes sorted by start time: IN_SCENE.order is that rank.
// params: $space, $owner_ids
// returns: ordered
UNWIND $owner_ids AS cid
MATCH (c:Character {space: $space, id: cid})-[r:IN_SCENE]->(s:Scene)
WITH c, r, s
ORDER BY c.id, s.start, s.seq, s.id
WITH c, collect(r) AS rels
UNWIND range(0, size(rels) - 1) AS i
WITH rels[i] AS r, i
SET r.order = i
RETURN count(r) AS ordered
