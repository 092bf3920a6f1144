// Fact (quadruple) nodes: SUBJECT and OBJECT entities, FROM the passage stating them.
// params: $space, $rows, $builder, $backend, $prompt_version
// returns: written
UNWIND $rows AS row
MATCH (s:Entity {space: $space, id: row.subject_id})
MATCH (o:Entity {space: $space, id: row.object_id})
MATCH (p:Passage {space: $space, id: row.passage_id})
MERGE (f:Fact {space: $space, id: row.id})
  ON CREATE SET f.subject = row.subject, f.relation = row.relation, f.object = row.object,
                f.time = row.time, f.text = row.text, f.builder = $builder,
                f.backend = $backend, f.prompt_version = $prompt_version,
                f.created_at = datetime()
MERGE (f)-[:SUBJECT]->(s)
MERGE (f)-[:OBJECT]->(o)
MERGE (f)-[:FROM]->(p)
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)
RETURN count(f) AS written
