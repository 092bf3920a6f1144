// Stored passage embeddings: a view's topic is the mean of its turns' vectors.
// params: $space, $ids
// returns: id, embedding
UNWIND $ids AS pid
MATCH (p:Passage {space: $space, id: pid})
RETURN p.id AS id, p.embedding AS embedding
