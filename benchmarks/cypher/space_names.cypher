// Names of the spaces starting with a prefix (benchmarks: how far a scale run got).
// params: $prefix
// returns: space
MATCH (s:Space)
WHERE s.space STARTS WITH $prefix
RETURN s.space AS space
ORDER BY space
