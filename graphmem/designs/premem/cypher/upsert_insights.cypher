// PREMem Step 2 reasoning: insights over a connected pair, -[:REASONS_OVER]-> both clusters
// and -[:FROM]-> the turns beneath them that they stand on; backend and fallback per row
// (the offline rules after the LLM gave up on the pair).
// params: $space, $rows, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (i:Insight {space: $space, id: row.id})
  ON CREATE SET i.created_at = datetime()
SET i.pattern = row.pattern, i.inference_type = row.inference_type, i.key = row.key,
    i.value = row.value, i.date = row.date, i.session_order = row.session_order,
    i.builder = 'premem', i.backend = row.backend, i.fallback = row.fallback,
    i.prompt_version = $prompt_version
WITH i, row
CALL db.create.setNodeVectorProperty(i, 'embedding', row.embedding)
CALL {
  WITH i, row
  UNWIND [row.earlier, row.later] AS cid
  MATCH (c:Cluster {space: $space, id: cid})
  MERGE (i)-[:REASONS_OVER]->(c)
}
CALL {
  WITH i, row
  UNWIND row.passages AS pid
  MATCH (p:Passage {space: $space, id: pid})
  MERGE (i)-[:FROM]->(p)
}
RETURN count(DISTINCT i) AS written
