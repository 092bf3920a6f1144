// Before a build: a changed session deletes its old turns, which leaves fragments, clusters
// and insights without sources; they are stale, so they go.
// params: $space
// returns: deleted
CALL {
  MATCH (n:Fragment|Cluster|Insight {space: $space})
  WHERE NOT (n)-[:FROM]->(:Passage)
  DETACH DELETE n
  RETURN count(n) AS deleted
}
RETURN deleted
