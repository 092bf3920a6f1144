// Views: a turn with its w neighbours (text, time and place of the centre, participants,
// topic vector); FROM each turn of the window.
// params: $space, $rows, $backend
// returns: written
UNWIND $rows AS row
MERGE (v:View {space: $space, id: row.id})
  ON CREATE SET v.created_at = datetime()
SET v.text = row.text, v.centre = row.centre, v.source_id = row.source_id,
    v.session = row.session, v.session_index = row.session_index,
    v.turn_index = row.turn_index, v.speaker = row.speaker, v.t = row.t,
    v.date_text = row.date_text, v.location = row.location, v.topic = row.topic,
    v.participants = row.participants, v.line = row.line, v.line_tokens = row.line_tokens,
    v.filler = row.filler, v.window = size(row.passage_ids), v.passage_ids = row.passage_ids,
    v.builder = 'cast', v.backend = $backend
WITH v, row
CALL db.create.setNodeVectorProperty(v, 'embedding', row.embedding)
WITH v, row
UNWIND row.passage_ids AS pid
MATCH (p:Passage {space: $space, id: pid})
MERGE (v)-[:FROM]->(p)
RETURN count(DISTINCT v) AS written
