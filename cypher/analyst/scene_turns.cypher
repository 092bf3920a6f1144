// CAST: each scene with its views in order and the turns beneath them.
// params: $space
// returns: scene, start, characters, views, turns
// requires: Scene
MATCH (s:Scene {space: $space})
OPTIONAL MATCH (s)-[h:HAS_VIEW]->(v:View)
WITH s, v ORDER BY h.order
WITH s, collect(v.text) AS views
RETURN s.summary AS scene, s.start AS start,
       [(c:Character)-[:IN_SCENE]->(s) | c.name] AS characters, views,
       [(s)-[:FROM]->(p:Passage) | p.source_id] AS turns
ORDER BY start, scene
