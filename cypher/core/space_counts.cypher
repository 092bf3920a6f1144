// Node counts per label in one space (stats, over-fetch factors for global indexes).
// params: $space
// returns: label, count
MATCH (n {space: $space})
UNWIND labels(n) AS label
RETURN label, count(*) AS count
ORDER BY label
