// Most talked-about entities: turns and sessions mentioning them, facts about them.
// first_mention is the earliest turn in conversation order (D1:3 before D10:1).
// params: $space
// returns: entity, turns, sessions, facts, first_mention
MATCH (e:Entity {space: $space})<-[:MENTIONS]-(p:Passage)
WITH e, count(p) AS turns, count(DISTINCT p.session) AS sessions,
     min([p.session_index, p.turn_index, p.source_id]) AS first
RETURN e.name AS entity, turns, sessions,
       COUNT { MATCH (f:Fact)-[:SUBJECT|OBJECT]->(e) RETURN f } AS facts, first[2] AS first_mention
ORDER BY turns DESC, facts DESC, entity
LIMIT 25
