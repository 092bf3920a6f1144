// Every event frame of one space with its source passages in conversation order: the map
// Reverse Provenance Expansion walks (kept by a retriever with its passage snapshot).
// params: $space
// returns: frame, summary, backend, source_ids
MATCH (f:EventFrame {space: $space})-[:FROM]->(p:Passage)
WITH f, p
ORDER BY p.session_index, p.turn_index
RETURN f.id AS frame, f.summary AS summary, f.backend AS backend, collect(p.id) AS source_ids
