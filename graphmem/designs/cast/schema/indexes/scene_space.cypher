// Range index on Scene.space: statements that match the Scene nodes of one space
// (`MATCH (n:Scene {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Scene of every space.
// params: none
// returns: none
CREATE INDEX scene_space IF NOT EXISTS FOR (n:Scene) ON (n.space)
