// The builders that have built some session of a space: what a forget builds again.
// params: $space
// returns: builders
MATCH (s:Session {space: $space})
UNWIND coalesce(s.built_by, []) AS builder
RETURN collect(DISTINCT builder) AS builders
