// The nearest stored frames of the space for each new frame (associative consolidation),
// with their events and source passages. Neo4j scores cosine as (1 + cos) / 2.
// params: $space, $rows, $fetch, $k
// returns: i, id, cosine, embedding, summary, statements, participants, topics, start, end, fallback, events, fallback_actions, passage_ids, passages, vector_parts, vector_passages, vector_texts
UNWIND $rows AS row
CALL {
  WITH row
  CALL db.index.vector.queryNodes('event_frame_embedding', $fetch, row.embedding)
  YIELD node, score
  WITH node, score
  WHERE node.space = $space
  RETURN node, score
  ORDER BY score DESC
  LIMIT $k
}
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
RETURN row.i AS i, node.id AS id, 2 * score - 1 AS cosine, node.embedding AS embedding,
       node.summary AS summary, node.statements AS statements,
       node.participants AS participants, node.topics AS topics, node.start AS start,
       node.end AS end, node.fallback AS fallback, events, fallback_actions, passage_ids,
       passages, node.vector_parts AS vector_parts, node.vector_passages AS vector_passages,
       node.vector_texts AS vector_texts
