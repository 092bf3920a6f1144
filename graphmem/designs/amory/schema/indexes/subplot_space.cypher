// Range index on Subplot.space: statements that match the Subplot nodes of one space
// (`MATCH (n:Subplot {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Subplot of every space.
// params: none
// returns: none
CREATE INDEX subplot_space IF NOT EXISTS FOR (n:Subplot) ON (n.space)
