// Range index on Fragment.space: statements that match the Fragment nodes of one space
// (`MATCH (n:Fragment {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Fragment of every space.
// params: none
// returns: none
CREATE INDEX fragment_space IF NOT EXISTS FOR (n:Fragment) ON (n.space)
