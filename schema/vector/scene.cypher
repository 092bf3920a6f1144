// Vector index over Scene.embedding; the dimension comes from the configured embedder.
// params: $dim
// returns: none
CREATE VECTOR INDEX scene_embedding IF NOT EXISTS FOR (n:Scene) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}
