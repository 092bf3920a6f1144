// The next scenes of a space to re-embed, in id order after $after, with the summary the
// builder embedded (graphmem reembed).
// params: $space, $after, $batch
// returns: id, summary
MATCH (n:Scene {space: $space})
WHERE n.id > $after AND n.embedding IS NOT NULL
RETURN n.id AS id, n.summary AS summary
ORDER BY n.id
LIMIT $batch
