// Connected pairs CP_i: the new cluster -[:CONNECTS {similarity}]-> the pooled one, which
// leaves the pool (matched_in: the order of the session that matched it first).
// params: $space, $rows
// returns: connected
UNWIND $rows AS row
MATCH (c:Cluster {space: $space, id: row.later})
MATCH (p:Cluster {space: $space, id: row.earlier})
MERGE (c)-[r:CONNECTS]->(p)
SET r.similarity = row.similarity,
    p.matched_in = CASE
      WHEN p.matched_in IS NULL OR p.matched_in > row.order THEN row.order
      ELSE p.matched_in
    END,
    p.in_pool = false
RETURN count(r) AS connected
