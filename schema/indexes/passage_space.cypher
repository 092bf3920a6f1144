// Range index on Passage.space: statements that match the Passage nodes of one space
// (`MATCH (n:Passage {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Passage of every space.
// params: none
// returns: none
CREATE INDEX passage_space IF NOT EXISTS FOR (n:Passage) ON (n.space)
