// AnchorMem atomic facts with their embedding and FROM provenance to their source turns.
// A fact already stored (same normalised text) keeps its first text and context and gains
// the new sources; its backend and fallback flag (offline extraction after the LLM gave up
// on the unit) are those of its first text too.
// params: $space, $rows, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (f:AtomicFact {space: $space, id: row.id})
  ON CREATE SET f.text = row.text, f.context = row.context, f.ts = row.ts,
                f.session_index = row.session_index, f.turn_index = row.turn_index,
                f.backend = row.backend, f.fallback = row.fallback, f.created_at = datetime()
SET f.builder = 'anchormem', f.prompt_version = $prompt_version
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)
CALL {
  WITH f, row
  UNWIND row.passages AS pid
  MATCH (p:Passage {space: $space, id: pid})
  MERGE (f)-[:FROM]->(p)
}
RETURN count(DISTINCT f) AS written
