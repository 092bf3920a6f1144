// Every fact of one space with its embedding, its subject and object entity ids and its
// source passage ids in conversation order: a retriever's exact in-memory fact index.
// params: $space
// returns: id, text, embedding, entity_ids, source_ids
MATCH (f:Fact {space: $space})
WHERE f.embedding IS NOT NULL
RETURN f.id AS id, f.text AS text, f.embedding AS embedding,
       COLLECT { MATCH (f)-[:SUBJECT|OBJECT]->(e:Entity) RETURN DISTINCT e.id } AS entity_ids,
       COLLECT {
         MATCH (f)-[:FROM]->(p:Passage)
         WITH p ORDER BY p.session_index, p.turn_index
         RETURN p.id
       } AS source_ids
ORDER BY id
