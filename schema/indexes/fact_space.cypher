// Range index on Fact.space: statements that match the Fact nodes of one space
// (`MATCH (n:Fact {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Fact of every space.
// params: none
// returns: none
CREATE INDEX fact_space IF NOT EXISTS FOR (n:Fact) ON (n.space)
