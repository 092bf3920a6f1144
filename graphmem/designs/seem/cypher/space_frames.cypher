// Every event frame of one space with its source passages in conversation order (ids and
// source ids): the map Reverse Provenance Expansion walks (kept by a retriever with its
// passage snapshot) and how consolidation partitioned the conversation.
// params: $space
// returns: frame, summary, backend, source_ids, turns
MATCH (f:EventFrame {space: $space})-[:FROM]->(p:Passage)
WITH f, p
ORDER BY p.session_index, p.turn_index
WITH f, collect(p) AS sources
RETURN f.id AS frame, f.summary AS summary, f.backend AS backend,
       [p IN sources | p.id] AS source_ids, [p IN sources | p.source_id] AS turns
ORDER BY turns[0]
