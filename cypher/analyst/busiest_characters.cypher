// Busiest characters: turns spoken, events and scenes they take part in, first and last turn.
// params: $space
// returns: character, turns, events, scenes, first_seen, last_seen
MATCH (c:Character {space: $space})
OPTIONAL MATCH (c)-[:SPOKE]->(p:Passage)
WITH c, count(p) AS turns, min(p.ts) AS first_seen, max(p.ts) AS last_seen
RETURN c.name AS character, turns,
       COUNT { MATCH (e:Event)-[:PARTICIPANT]->(c) RETURN e } AS events,
       COUNT { MATCH (c)-[:IN_SCENE]->(s:Scene) RETURN s } AS scenes,
       first_seen, last_seen
ORDER BY turns + events + scenes DESC, character
