// The next event frames of a space to re-embed, in id order after $after, with the parts
// their vector is folded from (graphmem reembed; graphmem/designs/seem/vectors.py). A frame
// stored before frames kept their parts is one part: its passages in conversation order,
// and its summary when an LLM built it.
// params: $space, $after, $batch
// returns: id, sizes, passages, texts
MATCH (f:EventFrame {space: $space})
WHERE f.id > $after AND f.embedding IS NOT NULL
WITH f ORDER BY f.id LIMIT $batch
WITH f, COLLECT {
  MATCH (f)-[:FROM]->(p:Passage) RETURN p.id ORDER BY p.session_index, p.turn_index
} AS sources
RETURN f.id AS id, coalesce(f.vector_parts, [size(sources)]) AS sizes,
       coalesce(f.vector_passages, sources) AS passages,
       coalesce(f.vector_texts,
                CASE WHEN f.vector_parts IS NULL AND f.prompt_version IS NOT NULL
                     THEN [f.summary] END) AS texts
ORDER BY id
