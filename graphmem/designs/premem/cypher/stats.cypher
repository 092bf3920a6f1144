// PREMem figures of a space (graphmem stats): fragments per category, clusters and the pool,
// connected pairs, insights per pattern.
// params: $space
// returns: turns, sessions, fragments, categories, clusters, in_pool, pairs, insights, patterns
CALL { MATCH (p:Passage {space: $space}) RETURN count(p) AS turns }
CALL {
  MATCH (f:Fragment {space: $space})
  RETURN count(f) AS fragments, count(DISTINCT f.session) AS sessions
}
CALL {
  MATCH (f:Fragment {space: $space})
  WITH f.category AS category, count(*) AS n
  RETURN collect([category, n]) AS categories
}
CALL {
  MATCH (c:Cluster {space: $space})
  RETURN count(c) AS clusters, count(CASE WHEN c.in_pool THEN 1 END) AS in_pool
}
CALL { MATCH (:Cluster {space: $space})-[r:CONNECTS]->() RETURN count(r) AS pairs }
CALL { MATCH (i:Insight {space: $space}) RETURN count(i) AS insights }
CALL {
  MATCH (i:Insight {space: $space})
  WITH i.pattern AS pattern, count(*) AS n
  RETURN collect([pattern, n]) AS patterns
}
RETURN turns, sessions, fragments, categories, clusters, in_pool, pairs, insights, patterns
