// Range index on Superseded.space: the statements a later one replaced (graphmem/validity/)
// of one space (`MATCH (n:Superseded {space: $space})`, the analyst's changes_between) seek
// here instead of scanning every superseded statement of every space.
// params: none
// returns: none
CREATE INDEX superseded_space IF NOT EXISTS FOR (n:Superseded) ON (n.space)
