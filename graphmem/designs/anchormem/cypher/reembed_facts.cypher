// The next AtomicFact nodes of a space to re-embed, in id order after $after, with the text
// the builder embedded (graphmem reembed).
// params: $space, $after, $batch
// returns: id, text
MATCH (n:AtomicFact {space: $space})
WHERE n.id > $after AND n.embedding IS NOT NULL
RETURN n.id AS id, n.text AS text
ORDER BY n.id
LIMIT $batch
