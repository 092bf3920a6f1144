// AnchorMem retrieval: the nearest facts (anchors, index atomic_fact_embedding) or
// associative events (assoc_event_embedding) of one space, each with its source turns (the
// fact-context mapping; an event's union of its facts' turns). $fetch over-fetches before
// the space filter.
// params: $index, $space, $embedding, $k, $fetch
// returns: id, score, text, backend, passages
CALL db.index.vector.queryNodes($index, $fetch, $embedding)
YIELD node, score
WITH node AS n, score
WHERE n.space = $space
WITH n, score
ORDER BY score DESC
LIMIT $k
RETURN n.id AS id, score, n.text AS text, n.backend AS backend,
       COLLECT {
         MATCH (n)-[:FROM]->(p:Passage)
         RETURN p {@passage}
         ORDER BY p.session_index, p.turn_index
       } AS passages
ORDER BY score DESC
