// A changed session is rewritten: everything derived from its passages is stale. Derived
// nodes with FROM to them are deleted; the other sessions those nodes also came from lose
// their built_by (with the session itself, every builder builds them again). Also returns
// the derived nodes without FROM by design (entities) next to what changed, for
// core.prune_loose, which deletes those that nothing grounds any more.
// params: $space, $session_id
// returns: deleted, sessions, loose
MATCH (p:Passage {space: $space, session: $session_id})
OPTIONAL MATCH (p)--(n)
  WHERE n.builder IS NOT NULL AND n.builder <> 'core' AND NOT (n)-[:FROM]->()
WITH collect(DISTINCT p) AS passages, collect(DISTINCT elementId(n)) AS near
CALL {
  WITH passages
  UNWIND passages AS p
  MATCH (p)<-[:FROM]-(d)
  WITH DISTINCT d
  MATCH (d)-[:FROM]->(q:Passage)
  RETURN collect(DISTINCT d) AS derived, collect(DISTINCT q.session) AS sources
}
CALL {
  WITH sources
  UNWIND sources AS sid
  MATCH (s:Session {space: $space, id: sid})
  SET s.built_by = []
  RETURN count(s) AS sessions
}
CALL {
  WITH derived
  UNWIND derived AS d
  OPTIONAL MATCH (d)--(n)
    WHERE n.builder IS NOT NULL AND n.builder <> 'core' AND NOT (n)-[:FROM]->()
  WITH d, collect(elementId(n)) AS around
  DETACH DELETE d
  RETURN count(d) AS deleted, reduce(acc = [], ids IN collect(around) | acc + ids) AS loose
}
RETURN deleted, sessions, near + loose AS loose
