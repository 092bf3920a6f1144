// Range index on AtomicFact.space: statements that match the AtomicFact nodes of one space
// (`MATCH (n:AtomicFact {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every AtomicFact of every space.
// params: none
// returns: none
CREATE INDEX atomic_fact_space IF NOT EXISTS FOR (n:AtomicFact) ON (n.space)
