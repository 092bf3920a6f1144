// Which of these entity ids already exist in the space; an entity created by a run that
// stopped before its synonym pass (`synonyms_pending`) comes with its embedding, so the
// rerun links it.
// params: $space, $ids
// returns: id, pending, embedding
UNWIND $ids AS key
MATCH (e:Entity {space: $space, id: key})
RETURN e.id AS id, coalesce(e.synonyms_pending, false) AS pending,
       CASE WHEN e.synonyms_pending THEN e.embedding END AS embedding
