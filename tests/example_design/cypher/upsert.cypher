// Keywords of the example design, each linked to the turns it occurs in.
// params: $space, $rows, $builder, $backend
// returns: -
UNWIND $rows AS row
MERGE (k:Keyword {space: $space, id: row.id})
SET k.word = row.word, k.builder = $builder, k.backend = $backend
WITH k, row
MATCH (p:Passage {space: $space, id: row.passage})
MERGE (k)-[:FROM]->(p)
