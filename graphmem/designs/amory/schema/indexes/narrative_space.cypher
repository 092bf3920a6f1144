// Range index on Narrative.space: statements that match the Narrative nodes of one space
// (`MATCH (n:Narrative {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Narrative of every space.
// params: none
// returns: none
CREATE INDEX narrative_space IF NOT EXISTS FOR (n:Narrative) ON (n.space)
