// Range index on AssocEvent.space: statements that match the AssocEvent nodes of one space
// (`MATCH (n:AssocEvent {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every AssocEvent of every space.
// params: none
// returns: none
CREATE INDEX assoc_event_space IF NOT EXISTS FOR (n:AssocEvent) ON (n.space)
