// Most talked-about entities: turns and sessions mentioning them, facts about them.
// params: $space
// returns: entity, turns, sessions, facts, first_mention
MATCH (e:Entity {space: $space})<-[:MENTIONS]-(p:Passage)
WITH e, count(p) AS turns, count(DISTINCT p.session) AS sessions, min(p.source_id) AS first_mention
RETURN e.name AS entity, turns, sessions,
       COUNT { MATCH (f:Fact)-[:SUBJECT|OBJECT]->(e) RETURN f } AS facts, first_mention
ORDER BY turns DESC, facts DESC, entity
LIMIT 25
