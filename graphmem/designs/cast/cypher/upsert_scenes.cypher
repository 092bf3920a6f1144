// Scenes of one character's stream: summary, time span, places, participants with roles,
// summary vector; HAS_VIEW its views and FROM the union of their turns (both rewritten);
// backend and fallback per row (an extractive summary after the LLM gave up on the scene).
// params: $space, $rows, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (s:Scene {space: $space, id: row.id})
  ON CREATE SET s.created_at = datetime()
SET s.owner = row.owner_id, s.character = row.owner, s.seq = row.seq, s.role = row.role,
    s.start = row.start, s.end = row.end, s.date_text = row.date_text,
    s.location = row.location, s.places = row.places, s.participants = row.participants,
    s.main = row.main, s.supporting = row.supporting, s.summary = row.summary,
    s.views = size(row.view_ids),
    s.builder = 'cast', s.backend = row.backend, s.fallback = row.fallback,
    s.prompt_version = $prompt_version, s.updated_at = datetime()
WITH s, row
CALL db.create.setNodeVectorProperty(s, 'embedding', row.embedding)
WITH s, row
OPTIONAL MATCH (s)-[old:HAS_VIEW|FROM]->()
DELETE old
WITH DISTINCT s, row
UNWIND range(0, size(row.view_ids) - 1) AS i
MATCH (v:View {space: $space, id: row.view_ids[i]})
MERGE (s)-[h:HAS_VIEW]->(v)
SET h.order = i
WITH DISTINCT s
MATCH (s)-[:HAS_VIEW]->(:View)-[:FROM]->(p:Passage)
WITH s, collect(DISTINCT p) AS sources
SET s.passages = size(sources)
FOREACH (p IN sources | MERGE (s)-[:FROM]->(p))
RETURN count(s) AS written
