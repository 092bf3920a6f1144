// New vectors of a batch of passages and the re-embedding's cursor (the last id written),
// in one transaction: a killed re-embedding resumes after the last batch it wrote.
// params: $space, $rows, $cursor
// returns: written
MATCH (sp:Space {space: $space, id: $space})
SET sp.reembed_cursor = $cursor
WITH sp
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.id})
CALL db.create.setNodeVectorProperty(p, 'embedding', row.embedding)
RETURN count(p) AS written
