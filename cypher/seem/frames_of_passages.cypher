// Reverse Provenance Expansion: the frames built from these passages and every passage
// each frame came from (after fusion: the union), in conversation order.
// params: $space, $ids
// returns: passage, frame, summary, sources
UNWIND $ids AS pid
MATCH (:Passage {space: $space, id: pid})<-[:FROM]-(f:EventFrame)
CALL {
  WITH f
  MATCH (f)-[:FROM]->(p:Passage)
  WITH p
  ORDER BY p.session_index, p.turn_index
  RETURN collect(p {.id, .source_id, .speaker, .text, .caption, .ts, .date_text,
                    .session_index, .turn_index, .tokens}) AS sources
}
RETURN pid AS passage, f.id AS frame, f.summary AS summary, sources
