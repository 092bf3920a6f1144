// Range index on View.space: statements that match the View nodes of one space
// (`MATCH (n:View {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every View of every space.
// params: none
// returns: none
CREATE INDEX view_space IF NOT EXISTS FOR (n:View) ON (n.space)
