// The entities each turn of a space mentions (graphmem eval precision: entity labels).
// params: $space
// returns: turn, value
MATCH (p:Passage {space: $space})-[:MENTIONS]->(e:Entity)
RETURN p.source_id AS turn, e.name AS value
