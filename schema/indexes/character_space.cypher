// Range index on Character.space: statements that match the Character nodes of one space
// (`MATCH (n:Character {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Character of every space.
// params: none
// returns: none
CREATE INDEX character_space IF NOT EXISTS FOR (n:Character) ON (n.space)
