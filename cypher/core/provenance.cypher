// Reverse provenance: the source passages of nodes of one label (a passage is its own
// source). Diagnostics and tests: a dynamic label is not served by the (space, id) index.
// params: $space, $label, $ids
// returns: node_id, passage
UNWIND $ids AS node_id
MATCH (n:$($label) {space: $space, id: node_id})
OPTIONAL MATCH (n)-[:FROM]->(src:Passage)
WITH node_id, n, collect(src) AS srcs
WITH node_id, CASE WHEN n:Passage THEN [n] ELSE srcs END AS sources
UNWIND sources AS p
RETURN node_id, p {@passage} AS passage
ORDER BY node_id, p.session_index, p.turn_index
