// The next views of a space to re-embed, in id order after $after, with their turns'
// vectors in window order: a view's topic is their normalised mean (graphmem reembed).
// params: $space, $after, $batch
// returns: id, vectors
MATCH (v:View {space: $space})
WHERE v.id > $after AND v.embedding IS NOT NULL
WITH v ORDER BY v.id LIMIT $batch
RETURN v.id AS id,
       [pid IN v.passage_ids | COLLECT {
          MATCH (p:Passage {space: $space, id: pid}) RETURN p.embedding
        }[0]] AS vectors
