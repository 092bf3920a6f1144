// Text, time, context and source turns of facts (the members of events to integrate).
// params: $space, $ids
// returns: id, text, context, ts, session_index, turn_index, passages
UNWIND $ids AS fid
MATCH (f:AtomicFact {space: $space, id: fid})
RETURN f.id AS id, f.text AS text, f.context AS context, f.ts AS ts,
       f.session_index AS session_index, f.turn_index AS turn_index,
       COLLECT {
         MATCH (f)-[:FROM]->(p:Passage)
         RETURN p {.speaker, .text, .caption, .date_text, .session_index, .turn_index}
         ORDER BY p.session_index, p.turn_index
       } AS passages
