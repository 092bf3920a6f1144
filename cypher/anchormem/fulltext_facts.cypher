// AnchorMem retrieval, optional lexical leg: Lucene BM25 over fact texts of one space and
// their source turns. $fetch over-fetches before the space filter.
// params: $space, $query, $k, $fetch
// returns: id, score, text, passages
CALL db.index.fulltext.queryNodes('atomic_fact_text', $query, {limit: $fetch})
YIELD node, score
WITH node AS f, score
WHERE f.space = $space
WITH f, score
ORDER BY score DESC
LIMIT $k
RETURN f.id AS id, score, f.text AS text,
       COLLECT {
         MATCH (f)-[:FROM]->(p:Passage)
         RETURN p {@passage}
         ORDER BY p.session_index, p.turn_index
       } AS passages
ORDER BY score DESC
