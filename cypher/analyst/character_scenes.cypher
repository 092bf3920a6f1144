// CAST: a character's scenes over time, with role (MC main, SC supporting), place and summary.
// params: $space, $character
// returns: character, start, end, role, location, summary, turns
// example: {"character": "Maya"}
// requires: Scene
MATCH (c:Character {space: $space})-[r:IN_SCENE]->(s:Scene)
WHERE toLower(c.name) = toLower($character)
RETURN c.name AS character, s.start AS start, s.end AS end, r.role AS role,
       s.location AS location, s.summary AS summary,
       [(s)-[:FROM]->(p:Passage) | p.source_id] AS turns
ORDER BY start, r.order
