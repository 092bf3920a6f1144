// Rebuilding passages (a build interrupted before its sessions were marked): frames made
// only of these passages go, with their events, so that the re-run starts clean.
// params: $space, $ids
// returns: deleted
UNWIND $ids AS pid
MATCH (:Passage {space: $space, id: pid})<-[:FROM]-(f:EventFrame)
WITH DISTINCT f
WHERE all(src IN [(f)-[:FROM]->(q:Passage) | q.id] WHERE src IN $ids)
OPTIONAL MATCH (f)-[:HAS_EVENT]->(e:Event)
DETACH DELETE e, f
RETURN count(DISTINCT f) AS deleted
