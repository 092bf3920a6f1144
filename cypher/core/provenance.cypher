// Reverse provenance: the source passages of any nodes (a passage is its own source).
// params: $space, $ids
// returns: node_id, id, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens
UNWIND $ids AS node_id
MATCH (n {space: $space, id: node_id})
OPTIONAL MATCH (n)-[:FROM]->(src:Passage)
WITH node_id, n, collect(src) AS srcs
WITH node_id, CASE WHEN n:Passage THEN [n] ELSE srcs END AS sources
UNWIND sources AS p
RETURN node_id, p.id AS id, p.source_id AS source_id, p.speaker AS speaker, p.text AS text,
       p.caption AS caption, p.ts AS ts, p.date_text AS date_text,
       p.session_index AS session_index, p.turn_index AS turn_index, p.tokens AS tokens
ORDER BY node_id, session_index, turn_index
