// New vectors of Insight nodes of a space (graphmem reembed).
// params: $space, $rows
// returns: written
UNWIND $rows AS row
MATCH (n:Insight {space: $space, id: row.id})
CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)
RETURN count(n) AS written
