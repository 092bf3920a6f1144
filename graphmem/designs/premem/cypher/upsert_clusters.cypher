// PREMem Step 2: one session's clusters (a topic: their fragments' commonest keys),
// grouping its fragments, citing their turns. A new cluster enters the persistent pool
// (in_pool); matched_in is set when a later session's cluster connects to it, and is left
// alone on a rerun.
// params: $space, $rows, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (c:Cluster {space: $space, id: row.id})
  ON CREATE SET c.created_at = datetime(), c.in_pool = true
SET c.session = row.session, c.session_order = row.session_order,
    c.session_index = row.session_index, c.size = size(row.fragments), c.topic = row.topic,
    c.centroid = row.centroid, c.builder = 'premem', c.backend = row.backend,
    c.fallback = row.fallback, c.prompt_version = $prompt_version
WITH c, row
CALL {
  WITH c, row
  UNWIND row.fragments AS fid
  MATCH (f:Fragment {space: $space, id: fid})
  MERGE (c)-[:GROUPS]->(f)
}
CALL {
  WITH c, row
  UNWIND row.passages AS pid
  MATCH (p:Passage {space: $space, id: pid})
  MERGE (c)-[:FROM]->(p)
}
RETURN count(DISTINCT c) AS written
