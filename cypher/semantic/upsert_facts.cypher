// Fact (quadruple) nodes: FROM the passage stating them, SUBJECT and OBJECT the entities of
// the ends that name a thing (an end that names none, e.g. "creative" in "Melanie is
// creative", has a null id and no edge; the fact keeps its text). Each row carries its
// node's backend and fallback flag (an offline extraction after the LLM gave up on the
// passage); the first writer of a fact keeps its labels.
// params: $space, $rows, $builder, $prompt_version
// returns: written
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id})
OPTIONAL MATCH (s:Entity {space: $space, id: row.subject_id})
OPTIONAL MATCH (o:Entity {space: $space, id: row.object_id})
MERGE (f:Fact {space: $space, id: row.id})
  ON CREATE SET f.subject = row.subject, f.relation = row.relation, f.object = row.object,
                f.time = row.time, f.text = row.text, f.builder = $builder,
                f.backend = row.backend, f.fallback = row.fallback,
                f.prompt_version = $prompt_version, f.created_at = datetime()
FOREACH (_ IN CASE WHEN s IS NULL THEN [] ELSE [1] END | MERGE (f)-[:SUBJECT]->(s))
FOREACH (_ IN CASE WHEN o IS NULL THEN [] ELSE [1] END | MERGE (f)-[:OBJECT]->(o))
MERGE (f)-[:FROM]->(p)
WITH f, row
CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)
RETURN count(f) AS written
