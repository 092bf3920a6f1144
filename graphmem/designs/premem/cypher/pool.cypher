// The persistent pool P_{i-1} as it stood when the session ordered $order was reached:
// clusters of earlier sessions not matched by a session before it. Asking "as of" (not
// "now") makes a rerun after a crash see the same pool as the first run. ORDER BY sees the
// projected map, so it carries the id: fragments of one turn come in id order, and the
// reasoning prompt (and its cache key) is the same on every run.
// params: $space, $order
// returns: id, session_order, centroid, fragments
MATCH (c:Cluster {space: $space})
WHERE c.session_order < $order AND (c.matched_in IS NULL OR c.matched_in >= $order)
RETURN c.id AS id, c.session_order AS session_order, c.centroid AS centroid,
       COLLECT {
         MATCH (c)-[:GROUPS]->(f:Fragment)
         RETURN f {.id, .category, .key, .value, .date, .speaker, .session_index, .turn_index,
                   .topic, .predicate, .negated, .lemmas, .fallback,
                   passages: COLLECT { MATCH (f)-[:FROM]->(p:Passage) RETURN p.id ORDER BY p.id }}
         ORDER BY f.session_index, f.turn_index, f.id
       } AS fragments
ORDER BY c.session_order, c.id
