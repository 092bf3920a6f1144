// AnchorMem retrieval, events: the nearest associative events of one space and the union
// of their source turns. $fetch over-fetches before the space filter.
// params: $space, $embedding, $k, $fetch
// returns: id, score, text, backend, passages
CALL db.index.vector.queryNodes('assoc_event_embedding', $fetch, $embedding)
YIELD node, score
WITH node AS e, score
WHERE e.space = $space
WITH e, score
ORDER BY score DESC
LIMIT $k
RETURN e.id AS id, score, e.text AS text, e.backend AS backend,
       COLLECT {
         MATCH (e)-[:FROM]->(p:Passage)
         RETURN p {.id, .source_id, .speaker, .text, .caption, .ts, .date_text,
                   .session_index, .turn_index, .tokens}
         ORDER BY p.session_index, p.turn_index
       } AS passages
ORDER BY score DESC
