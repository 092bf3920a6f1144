// AnchorMem's ranked nodes of one space, read once for in-process ranking (the retriever's
// snapshot, `search = "snapshot"`): atomic facts and associative events, each with its
// embedding and its source turns (the fact-context mapping; an event's union of its facts'
// turns). Same nodes and fields as anchormem.search.
// params: $space
// returns: label, id, text, backend, embedding, passages
CALL {
  MATCH (n:AtomicFact {space: $space})
  RETURN n, 'AtomicFact' AS label
  UNION ALL
  MATCH (n:AssocEvent {space: $space})
  RETURN n, 'AssocEvent' AS label
}
RETURN label, n.id AS id, n.text AS text, n.backend AS backend, n.embedding AS embedding,
       COLLECT {
         MATCH (n)-[:FROM]->(p:Passage)
         RETURN p {@passage}
         ORDER BY p.session_index, p.turn_index
       } AS passages
ORDER BY label, id
