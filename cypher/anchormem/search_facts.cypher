// AnchorMem retrieval, anchors: the nearest facts of one space and their source turns
// (the fact-context mapping). $fetch over-fetches before the space filter.
// params: $space, $embedding, $k, $fetch
// returns: id, score, text, passages
CALL db.index.vector.queryNodes('atomic_fact_embedding', $fetch, $embedding)
YIELD node, score
WITH node AS f, score
WHERE f.space = $space
WITH f, score
ORDER BY score DESC
LIMIT $k
RETURN f.id AS id, score, f.text AS text,
       COLLECT {
         MATCH (f)-[:FROM]->(p:Passage)
         RETURN p {.id, .source_id, .speaker, .text, .caption, .ts, .date_text,
                   .session_index, .turn_index, .tokens}
         ORDER BY p.session_index, p.turn_index
       } AS passages
ORDER BY score DESC
