// The next Insight nodes of a space to re-embed, in id order after $after, with the key and
// value whose "key: value" the builder embedded (graphmem reembed).
// params: $space, $after, $batch
// returns: id, key, value
MATCH (n:Insight {space: $space})
WHERE n.id > $after AND n.embedding IS NOT NULL
RETURN n.id AS id, n.key AS key, n.value AS value
ORDER BY n.id
LIMIT $batch
