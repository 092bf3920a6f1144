// Before a build: a changed session deletes its old passages, which leaves facts without
// sources. Drop the events that integrate such a fact (their narrative is stale), then
// the facts.
// params: $space
// returns: events, facts
CALL {
  MATCH (e:AssocEvent {space: $space})-[:INTEGRATES]->(f:AtomicFact)
  WHERE NOT (f)-[:FROM]->(:Passage)
  WITH DISTINCT e
  DETACH DELETE e
  RETURN count(e) AS events
}
CALL {
  MATCH (f:AtomicFact {space: $space})
  WHERE NOT (f)-[:FROM]->(:Passage)
  DETACH DELETE f
  RETURN count(f) AS facts
}
RETURN events, facts
