// Events of frames: SEEM's six slots, PARTICIPANT links to entities and speaking characters,
// FROM the frame's passages.
// params: $space, $rows, $builder
// returns: written
UNWIND $rows AS row
MATCH (f:EventFrame {space: $space, id: row.frame_id})
MERGE (e:Event {space: $space, id: row.id})
SET e.participants = row.participants, e.action = row.action, e.time = row.time,
    e.location = row.location, e.causality = row.causality, e.manner = row.manner,
    e.builder = $builder, e.backend = row.backend, e.fallback = row.fallback
MERGE (f)-[h:HAS_EVENT]->(e)
SET h.order = row.order
WITH e, row
CALL {
  WITH e, row
  UNWIND row.entity_ids AS eid
  MATCH (n:Entity {space: $space, id: eid})
  MERGE (e)-[:PARTICIPANT]->(n)
  RETURN count(*) AS entities
}
CALL {
  WITH e, row
  UNWIND row.speaker_ids AS sid
  MATCH (c:Speaker {space: $space, id: sid})
  MERGE (e)-[:PARTICIPANT]->(c)
  RETURN count(*) AS characters
}
CALL {
  WITH e, row
  UNWIND row.passage_ids AS pid
  MATCH (p:Passage {space: $space, id: pid})
  MERGE (e)-[:FROM]->(p)
  RETURN count(*) AS sources
}
RETURN count(e) AS written
