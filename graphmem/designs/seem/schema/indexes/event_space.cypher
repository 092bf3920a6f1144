// Range index on Event.space: statements that match the Event nodes of one space
// (`MATCH (n:Event {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every Event of every space.
// params: none
// returns: none
CREATE INDEX event_space IF NOT EXISTS FOR (n:Event) ON (n.space)
