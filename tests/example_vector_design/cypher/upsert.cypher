// Gists of the vector example design: one per turn, embedded, linked to its turn.
// params: $space, $rows, $builder, $backend
// returns: -
UNWIND $rows AS row
MERGE (g:Gist {space: $space, id: row.id})
SET g.text = row.text, g.embedding = row.embedding, g.builder = $builder, g.backend = $backend
WITH g, row
MATCH (p:Passage {space: $space, id: row.passage})
MERGE (g)-[:FROM]->(p)
