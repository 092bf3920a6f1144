// Amory's semantic memory of one space: the side facts it semanticised, with their subject
// and object names, embedding and source turns (the offline retriever's fact index).
// params: $space
// returns: id, text, subject, object, embedding, passage_ids
MATCH (f:Fact {space: $space})
WHERE f.embedding IS NOT NULL AND EXISTS { (f)<-[:SEMANTICIZED]-(:Narrative) }
RETURN f.id AS id, f.text AS text, f.subject AS subject, f.object AS object,
       f.embedding AS embedding,
       COLLECT { MATCH (f)-[:FROM]->(p:Passage) RETURN p.id } AS passage_ids
ORDER BY id
