// Turns of one session: passage nodes with their speaker, embedding and session link.
// params: $space, $session_id, $rows
// returns: written
MATCH (s:Session {space: $space, id: $session_id})
UNWIND $rows AS row
MERGE (p:Passage {space: $space, id: row.id})
SET p.source_id = row.source_id, p.speaker = row.speaker, p.text = row.text,
    p.ts = row.ts, p.caption = row.caption, p.turn_index = row.turn_index,
    p.session_index = s.index, p.session = s.id, p.conversation = s.conversation,
    p.tokens = row.tokens, p.date_text = s.date_text, p.builder = 'core'
WITH s, p, row
CALL db.create.setNodeVectorProperty(p, 'embedding', row.embedding)
MERGE (p)-[:IN_SESSION]->(s)
// A person another design met first as a mentioned Character becomes its speaker.
MERGE (sp:Character {space: $space, id: row.speaker_id})
  ON CREATE SET sp.name = row.speaker
SET sp:Speaker
MERGE (sp)-[:SPOKE]->(p)
RETURN count(p) AS written
