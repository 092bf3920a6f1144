// Range index on Space.space: statements that match the Space nodes of one space
// (`MATCH (n:Space {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Space of every space.
// params: none
// returns: none
CREATE INDEX space_space IF NOT EXISTS FOR (n:Space) ON (n.space)
