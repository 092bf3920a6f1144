// The stored entity of each normalised phrase key: the entity with the key's own id, else
// the one that recorded the key as an alias (a near-duplicate merged into it); no row for
// a key with neither. Designs above the layer link to entities through this.
// params: $space, $rows
// returns: key, id
UNWIND $rows AS row
OPTIONAL MATCH (own:Entity {space: $space, id: row.id})
WITH row, own, COLLECT {
  MATCH (twin:Entity {space: $space})
  WHERE own IS NULL AND row.key IN twin.aliases
  RETURN twin.id ORDER BY twin.id LIMIT 1
} AS twins
WITH row, coalesce(own.id, twins[0]) AS id
WHERE id IS NOT NULL
RETURN row.key AS key, id
