// Range index on EventFrame.space: statements that match the EventFrame nodes of one space
// (`MATCH (n:EventFrame {space: $space})`) seek here; the (space, id) constraint's index serves
// only lookups by both, so without this they scan every EventFrame of every space.
// params: none
// returns: none
CREATE INDEX event_frame_space IF NOT EXISTS FOR (n:EventFrame) ON (n.space)
