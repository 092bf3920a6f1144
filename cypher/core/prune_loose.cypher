// Derived nodes without FROM (entities) that nothing grounds any more after a session was
// rewritten: no passage next to them and no node with a source pointing at them.
// params: $space, $ids
// returns: deleted
UNWIND $ids AS eid
WITH DISTINCT eid
MATCH (n)
  WHERE elementId(n) = eid AND n.space = $space
    AND NOT (n)-[:FROM]->(:Passage)
    AND NOT (n)--(:Passage)
    AND NOT EXISTS { MATCH (n)<--(m) WHERE (m)-[:FROM]->(:Passage) }
DETACH DELETE n
RETURN count(n) AS deleted
