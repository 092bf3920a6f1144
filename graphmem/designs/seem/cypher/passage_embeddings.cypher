// Stored passage embeddings: an offline frame of one turn is embedded as its turn.
// params: $space, $ids
// returns: id, embedding
UNWIND $ids AS pid
MATCH (p:Passage {space: $space, id: pid})
RETURN p.id AS id, p.embedding AS embedding
