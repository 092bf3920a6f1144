// Sessions to be written again by the next ingest (a forget moved them up or removed some
// of their turns): each at its new place, its content hash matching no input.
// params: $space, $rows
// returns: marked
UNWIND $rows AS row
MATCH (s:Session {space: $space, id: row.id})
SET s.content_hash = null, s.index = row.index
RETURN count(s) AS marked
