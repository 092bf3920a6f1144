// What a space holds for queries: how many sessions, and which builders completed any.
// params: $space
// returns: sessions, builders
OPTIONAL MATCH (s:Session {space: $space})
WITH count(s) AS sessions, collect(s.built_by) AS built
RETURN sessions, reduce(acc = [], b IN built | acc + [x IN coalesce(b, []) WHERE NOT x IN acc])
       AS builders
