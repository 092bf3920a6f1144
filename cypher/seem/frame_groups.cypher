// Which turns each frame of a space groups (source ids in conversation order), with the
// frame's summary: how consolidation partitioned the conversation.
// params: $space
// returns: frame, summary, backend, turns
MATCH (f:EventFrame {space: $space})-[:FROM]->(p:Passage)
WITH f, p
ORDER BY p.session_index, p.turn_index
WITH f, collect(p.source_id) AS turns
RETURN f.id AS frame, f.summary AS summary, f.backend AS backend, turns
ORDER BY turns[0]
