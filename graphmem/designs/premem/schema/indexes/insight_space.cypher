// Range index on Insight.space: statements that match the Insight nodes of one space
// (`MATCH (n:Insight {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Insight of every space.
// params: none
// returns: none
CREATE INDEX insight_space IF NOT EXISTS FOR (n:Insight) ON (n.space)
