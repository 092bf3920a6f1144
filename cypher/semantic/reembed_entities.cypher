// The next entities of a space to re-embed, in id order after $after, with the key the
// builder embedded (graphmem reembed).
// params: $space, $after, $batch
// returns: id, key
MATCH (e:Entity {space: $space})
WHERE e.id > $after AND e.embedding IS NOT NULL
RETURN e.id AS id, e.key AS key
ORDER BY e.id
LIMIT $batch
