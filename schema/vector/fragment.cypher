// Vector index over Fragment.embedding; the dimension comes from the configured embedder.
// params: $dim
// returns: none
CREATE VECTOR INDEX fragment_embedding IF NOT EXISTS FOR (n:Fragment) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}
