// PREMem's ranked items of one space, read once for in-process ranking (the retriever's
// snapshot, `search = "snapshot"`): fragments, insights ($insights; $offline_insights false:
// only insights an LLM wrote) and, with $messages, the original turns, each with its
// embedding and its cited turns (a turn cites itself). Same items as premem.search.
// params: $space, $insights, $offline_insights, $messages
// returns: id, label, embedding, category, pattern, key, value, date, passages
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
RETURN n.id AS id,
       CASE WHEN n:Insight THEN 'Insight' WHEN n:Passage THEN 'Passage' ELSE 'Fragment' END
         AS label,
       n.embedding AS embedding,
       n.category AS category, n.pattern AS pattern, n.key AS key, n.value AS value,
       n.date AS date,
       CASE WHEN n:Passage THEN [p IN [n] | p {@passage}] ELSE COLLECT {
         MATCH (n)-[:FROM]->(p:Passage)
         RETURN p {@passage}
         ORDER BY p.session_index, p.turn_index
       } END AS passages
ORDER BY id
