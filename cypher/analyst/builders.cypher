// Who built what: derived nodes per label, builder and backend, with the share citing turns.
// params: $space
// returns: label, builder, backend, nodes, with_sources
CALL db.labels() YIELD label
WITH label WHERE label <> 'Speaker'
CALL (label) {
  MATCH (n:$(label) {space: $space})
  WHERE n.builder IS NOT NULL
  RETURN n.builder AS builder, coalesce(n.backend, '-') AS backend, count(n) AS nodes,
         sum(CASE WHEN (n)-[:FROM]->(:Passage) THEN 1 ELSE 0 END) AS with_sources
}
RETURN label, builder, backend, nodes, with_sources
ORDER BY builder, label
