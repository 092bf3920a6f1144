// AnchorMem figures of a space (graphmem stats): facts, events, links, pruning counters.
// params: $space
// returns: turns, facts, events, similar, integrated, mean_event_size, candidates, discarded
CALL { MATCH (p:Passage {space: $space}) RETURN count(p) AS turns }
CALL { MATCH (f:AtomicFact {space: $space}) RETURN count(f) AS facts }
CALL {
  MATCH (e:AssocEvent {space: $space})
  RETURN count(e) AS events, avg(e.size) AS mean_event_size
}
CALL { MATCH (:AtomicFact {space: $space})-[r:SIMILAR]->(:AtomicFact) RETURN count(r) AS similar }
CALL {
  MATCH (:AssocEvent {space: $space})-[:INTEGRATES]->(f:AtomicFact)
  RETURN count(DISTINCT f) AS integrated
}
CALL {
  MATCH (s:Session {space: $space})
  RETURN sum(coalesce(s.anchormem_candidates, 0)) AS candidates,
         sum(coalesce(s.anchormem_discarded, 0)) AS discarded
}
RETURN turns, facts, events, similar, integrated, mean_event_size, candidates, discarded
