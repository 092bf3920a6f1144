// Lucene BM25 retrieval over passage text and image captions (english analyzer), one space.
// params: $space, $query, $k, $fetch
// returns: id, score
CALL db.index.fulltext.queryNodes('passage_text', $query, {limit: $fetch}) YIELD node, score
WITH node, score
WHERE node.space = $space
RETURN node.id AS id, score
ORDER BY score DESC
LIMIT $k
