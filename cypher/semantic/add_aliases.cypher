// Near-duplicate phrases resolved to an existing entity are kept as its aliases.
// params: $space, $rows
// returns: updated
UNWIND $rows AS row
MATCH (e:Entity {space: $space, id: row.id})
SET e.aliases = CASE WHEN row.alias IN coalesce(e.aliases, []) THEN e.aliases
                     ELSE coalesce(e.aliases, []) + row.alias END
RETURN count(e) AS updated
