// Entities the semantic layer treats as the same thing (SYNONYM, by embedding similarity).
// params: $space
// returns: entity, synonym, score
MATCH (a:Entity {space: $space})-[r:SYNONYM]-(b:Entity)
WHERE a.name <= b.name
RETURN DISTINCT a.name AS entity, b.name AS synonym, round(r.score, 3) AS score
ORDER BY score DESC
