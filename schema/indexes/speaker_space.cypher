// Range index on Speaker.space: statements that match the Speaker nodes of one space
// (`MATCH (n:Speaker {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Speaker of every space.
// params: none
// returns: none
CREATE INDEX speaker_space IF NOT EXISTS FOR (n:Speaker) ON (n.space)
