// Views of sessions being (re)built are removed first, so a crashed or rewritten session
// is rebuilt from the state before it; scenes left empty go with them.
// params: $space, $session_ids
// returns: scene_id, owner
MATCH (v:View {space: $space})
WHERE v.session IN $session_ids
OPTIONAL MATCH (s:Scene {space: $space})-[:HAS_VIEW]->(v)
WITH collect(DISTINCT s) AS scenes, collect(DISTINCT v) AS views
FOREACH (v IN views | DETACH DELETE v)
WITH scenes
UNWIND scenes AS s
OPTIONAL MATCH (s)-[:HAS_VIEW]->(left:View)
WITH s, count(left) AS remaining
FOREACH (_ IN CASE WHEN remaining = 0 THEN [1] ELSE [] END | DETACH DELETE s)
WITH s, remaining
WHERE remaining > 0
RETURN s.id AS scene_id, s.character AS owner
