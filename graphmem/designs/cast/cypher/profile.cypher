// A character profile: the scenes of its stream in start order, with role and summary.
// params: $space, $character
// returns: character, order, role, scene_id, start, end, date_text, location, participants, main, supporting, views, summary
MATCH (c:Character {space: $space})-[r:IN_SCENE]->(s:Scene {space: $space})
WHERE toLower(c.name) = toLower($character)
RETURN c.name AS character, r.order AS order, r.role AS role, s.id AS scene_id,
       s.start AS start, s.end AS end, s.date_text AS date_text, s.location AS location,
       s.participants AS participants, s.main AS main, s.supporting AS supporting,
       s.views AS views, s.summary AS summary
ORDER BY order
