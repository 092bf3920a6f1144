// Range index on Entity.space: statements that match the Entity nodes of one space
// (`MATCH (n:Entity {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Entity of every space.
// params: none
// returns: none
CREATE INDEX entity_space IF NOT EXISTS FOR (n:Entity) ON (n.space)
