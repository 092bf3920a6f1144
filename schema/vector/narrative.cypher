// Vector index over Narrative.embedding; the dimension comes from the configured embedder.
// params: $dim
// returns: none
CREATE VECTOR INDEX narrative_embedding IF NOT EXISTS FOR (n:Narrative) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}
