// Range index on Session.space: statements that match the Session nodes of one space
// (`MATCH (n:Session {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Session of every space.
// params: none
// returns: none
CREATE INDEX session_space IF NOT EXISTS FOR (n:Session) ON (n.space)
