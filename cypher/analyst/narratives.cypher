// Amory: narratives (about which character, active or not), their subplots and story items.
// params: $space
// returns: narrative, about, status, subplots, items, last_bound
// requires: Narrative
MATCH (n:Narrative {space: $space})
RETURN n.headline AS narrative, [(n)-[:ABOUT]->(c:Character) | c.name] AS about,
       n.status AS status,
       [(n)-[:HAS_SUBPLOT]->(s:Subplot) | s.headline] AS subplots,
       COUNT { MATCH (n)-[:HOLDS|HAS_SUBPLOT*1..2]->(i:StoryItem) RETURN DISTINCT i } AS items,
       n.last_bound AS last_bound
ORDER BY items DESC, narrative
