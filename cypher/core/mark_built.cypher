// Record that a builder has completed these sessions.
// params: $space, $session_ids, $builder
// returns: marked
UNWIND $session_ids AS sid
MATCH (s:Session {space: $space, id: sid})
SET s.built_by = CASE WHEN $builder IN coalesce(s.built_by, []) THEN s.built_by
                      ELSE coalesce(s.built_by, []) + $builder END
RETURN count(s) AS marked
