// New vectors of AssocEvent nodes of a space (graphmem reembed).
// params: $space, $rows
// returns: written
UNWIND $rows AS row
MATCH (n:AssocEvent {space: $space, id: row.id})
CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)
RETURN count(n) AS written
