// PREMem inference (section 3.3): fragments and insights of one space ranked together by
// exact cosine to the question ($insights false: fragments only; $offline_insights false:
// only insights an LLM wrote; $messages true: the original turns compete too), with their
// cited turns (a turn cites itself).
// params: $space, $embedding, $k, $insights, $offline_insights, $messages
// returns: id, label, score, category, pattern, key, value, date, passages
CALL {
  MATCH (n:Fragment {space: $space})
  RETURN n
  UNION ALL
  MATCH (n:Insight {space: $space})
  WHERE $insights AND ($offline_insights OR n.backend <> 'offline')
  RETURN n
  UNION ALL
  MATCH (n:Passage {space: $space})
  WHERE $messages
  RETURN n
}
WITH n, vector.similarity.cosine(n.embedding, $embedding) AS score
ORDER BY score DESC, n.id
LIMIT $k
RETURN n.id AS id,
       CASE WHEN n:Insight THEN 'Insight' WHEN n:Passage THEN 'Passage' ELSE 'Fragment' END
         AS label,
       score,
       n.category AS category, n.pattern AS pattern, n.key AS key, n.value AS value,
       n.date AS date,
       CASE WHEN n:Passage THEN [p IN [n] | p {@passage}] ELSE COLLECT {
         MATCH (n)-[:FROM]->(p:Passage)
         RETURN p {@passage}
         ORDER BY p.session_index, p.turn_index
       } END AS passages
ORDER BY score DESC, id
