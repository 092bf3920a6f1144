// Every provenance edge of one space: a derived node of any design and a turn it comes
// from (the graphmem strategy's union-PageRank experiment walks them both ways).
// params: $space
// returns: node, passage
MATCH (x)-[:FROM]->(p:Passage {space: $space})
WHERE NOT x:Session
RETURN x.id AS node, p.id AS passage
