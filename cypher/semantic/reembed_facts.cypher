// The next facts of a space to re-embed, in id order after $after, with the parts of the
// statement the builder embedded (graphmem reembed).
// params: $space, $after, $batch
// returns: id, subject, relation, object
MATCH (f:Fact {space: $space})
WHERE f.id > $after AND f.embedding IS NOT NULL
RETURN f.id AS id, f.subject AS subject, f.relation AS relation, f.object AS object
ORDER BY f.id
LIMIT $batch
