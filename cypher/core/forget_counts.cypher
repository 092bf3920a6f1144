// What forgetting $passages does to the nodes derived from them, per label: those citing
// only forgotten turns go (removed), those citing kept turns too are built again
// (recomputed). The extra label Superseded is not counted apart.
// params: $space, $passages
// returns: label, removed, recomputed
UNWIND $passages AS pid
MATCH (:Passage {space: $space, id: pid})<-[:FROM]-(d)
WITH DISTINCT d
OPTIONAL MATCH (d)-[:FROM]->(q:Passage)
  WHERE NOT q.id IN $passages
WITH d, count(q) AS kept
WITH [l IN labels(d) WHERE l <> 'Superseded'][0] AS label, kept
RETURN label, sum(CASE WHEN kept = 0 THEN 1 ELSE 0 END) AS removed,
       sum(CASE WHEN kept > 0 THEN 1 ELSE 0 END) AS recomputed
ORDER BY label
