// Persons named in views: the same Character node every design uses for that person
// (id = hash of the name, as the core writer's speakers); a speaker keeps its labels.
// params: $space, $rows, $backend
// returns: written
UNWIND $rows AS row
MERGE (c:Character {space: $space, id: row.id})
  ON CREATE SET c.name = row.name, c.builder = 'cast', c.backend = $backend,
                c.created_at = datetime()
RETURN count(c) AS written
