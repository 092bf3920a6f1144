// Reverse Provenance Expansion: the frames built from these passages and every passage
// each frame came from (after fusion: the union), in conversation order. Only the sources
// that are not among $ids come with their text: the caller has the others.
// params: $space, $ids
// returns: frame, summary, backend, source_ids, extra
UNWIND $ids AS pid
MATCH (:Passage {space: $space, id: pid})<-[:FROM]-(f:EventFrame)
WITH DISTINCT f
CALL {
  WITH f
  MATCH (f)-[:FROM]->(p:Passage)
  WITH p
  ORDER BY p.session_index, p.turn_index
  RETURN collect(p.id) AS source_ids,
         [q IN collect(p) WHERE NOT q.id IN $ids | q {.id, .source_id, .speaker, .text,
            .caption, .ts, .date_text, .session_index, .turn_index, .tokens}] AS extra
}
RETURN f.id AS frame, f.summary AS summary, f.backend AS backend, source_ids, extra
