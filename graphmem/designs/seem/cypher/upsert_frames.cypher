// Episodic Event Frames, new or fused: summary (and its date-less caption for the Browser),
// slots, embedding and FROM every source; backend and fallback per row (an offline frame
// or fusion after the LLM gave up); the parts its vector is folded from (vector_parts,
// vector_passages, vector_texts: null offline).
// params: $space, $rows, $builder, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (f:EventFrame {space: $space, id: row.id})
  ON CREATE SET f.created_at = datetime()
SET f.summary = row.summary, f.caption = row.caption, f.participants = row.participants, f.topics = row.topics,
    f.statements = row.statements,
    f.start = row.start, f.end = row.end, f.passages = size(row.passage_ids),
    f.builder = $builder, f.backend = row.backend, f.fallback = row.fallback,
    f.prompt_version = $prompt_version, f.vector_parts = row.vector_parts,
    f.vector_passages = row.vector_passages, f.vector_texts = row.vector_texts
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)
WITH f, row
UNWIND row.passage_ids AS pid
MATCH (p:Passage {space: $space, id: pid})
MERGE (f)-[:FROM]->(p)
RETURN count(DISTINCT f) AS written
