// Every cluster of a space with its fragments' vectors (graphmem reembed: the centroid is
// their mean, as the builder computes it).
// params: $space
// returns: id, vectors
MATCH (c:Cluster {space: $space})
RETURN c.id AS id,
       COLLECT { MATCH (c)-[:GROUPS]->(f:Fragment) RETURN f.embedding ORDER BY f.id } AS vectors
ORDER BY id
