// Stored frames of the space chosen for each new frame (associative consolidation; the
// nearest ones, ranked in memory from `seem.frame_vectors`), with their events and source
// passages. $rows: i (the new frame), rank, id (the stored frame), score ((1 + cos) / 2).
// params: $space, $rows
// returns: i, rank, id, cosine, embedding, summary, statements, participants, topics, start, end, fallback, events, fallback_actions, passage_ids, passages, vector_parts, vector_passages, vector_texts
UNWIND $rows AS row
MATCH (node:EventFrame {space: $space, id: row.id})
CALL {
  WITH node
  OPTIONAL MATCH (node)-[h:HAS_EVENT]->(ev:Event)
  WITH h, ev
  ORDER BY h.order
  RETURN collect(ev {.participants, .action, .time, .location, .causality, .manner}) AS events,
         collect(CASE WHEN ev.fallback THEN ev.action END) AS fallback_actions
}
CALL {
  WITH node
  MATCH (node)-[:FROM]->(p:Passage)
  WITH p
  ORDER BY p.session_index, p.turn_index
  RETURN collect(p.id) AS passage_ids,
         collect(p {@passage}) AS passages
}
RETURN row.i AS i, row.rank AS rank, node.id AS id, 2 * row.score - 1 AS cosine, node.embedding AS embedding,
       node.summary AS summary, node.statements AS statements,
       node.participants AS participants, node.topics AS topics, node.start AS start,
       node.end AS end, node.fallback AS fallback, events, fallback_actions, passage_ids,
       passages,
       node.vector_parts AS vector_parts, node.vector_passages AS vector_passages,
       node.vector_texts AS vector_texts
