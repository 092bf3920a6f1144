// PREMem Step 1: memory fragments (key, value, date, category) with their embedding and
// FROM provenance to the turn(s) named by their message id; backend and fallback per row
// (the offline rules after the LLM gave up on the session).
// params: $space, $rows, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (f:Fragment {space: $space, id: row.id})
  ON CREATE SET f.created_at = datetime()
SET f.category = row.category, f.key = row.key, f.value = row.value, f.date = row.date,
    f.speaker = row.speaker, f.session = row.session, f.session_order = row.session_order,
    f.session_index = row.session_index, f.turn_index = row.turn_index,
    f.topic = row.topic, f.predicate = row.predicate, f.negated = row.negated,
    f.lemmas = row.lemmas, f.builder = 'premem', f.backend = row.backend,
    f.fallback = row.fallback, f.prompt_version = $prompt_version
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)
CALL {
  WITH f, row
  UNWIND row.passages AS pid
  MATCH (p:Passage {space: $space, id: pid})
  MERGE (f)-[:FROM]->(p)
}
RETURN count(DISTINCT f) AS written
