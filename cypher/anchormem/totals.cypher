// Facts and events in the whole database and in one space: the over-fetch factor for the
// global vector indexes (they span every space).
// params: $space
// returns: facts_total, facts_in_space, events_total, events_in_space
CALL { MATCH (f:AtomicFact) RETURN count(f) AS facts_total }
CALL { MATCH (f:AtomicFact {space: $space}) RETURN count(f) AS facts_in_space }
CALL { MATCH (e:AssocEvent) RETURN count(e) AS events_total }
CALL { MATCH (e:AssocEvent {space: $space}) RETURN count(e) AS events_in_space }
RETURN facts_total, facts_in_space, events_total, events_in_space
