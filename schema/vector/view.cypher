// Vector index over View.embedding; the dimension comes from the configured embedder.
// params: $dim
// returns: none
CREATE VECTOR INDEX view_embedding IF NOT EXISTS FOR (n:View) ON n.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dim, `vector.similarity_function`: 'cosine', `vector.quantization.enabled`: false}}
