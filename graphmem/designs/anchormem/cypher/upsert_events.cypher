// Associative events: narrative (and its date-less caption for the Browser), embedding,
// INTEGRATES to their facts and FROM to the union of their facts' source turns; backend
// and fallback per row (an extractive narrative after the LLM gave up on the group).
// params: $space, $rows, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (e:AssocEvent {space: $space, id: row.id})
  ON CREATE SET e.created_at = datetime()
SET e.text = row.text, e.caption = row.caption, e.ts = row.ts, e.size = size(row.members),
    e.builder = 'anchormem', e.backend = row.backend, e.fallback = row.fallback, e.prompt_version = $prompt_version
WITH e, row
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
CALL {
  WITH e, row
  UNWIND row.members AS fid
  MATCH (f:AtomicFact {space: $space, id: fid})
  MERGE (e)-[:INTEGRATES]->(f)
  WITH e, f
  MATCH (f)-[:FROM]->(p:Passage)
  MERGE (e)-[:FROM]->(p)
}
RETURN count(DISTINCT e) AS written
