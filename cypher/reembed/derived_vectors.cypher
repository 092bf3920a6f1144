// Labels of a space's nodes other than passages that hold a vector, with their counts.
// params: $space
// returns: label, count
MATCH (n {space: $space})
WHERE n.embedding IS NOT NULL AND NOT n:Passage
UNWIND labels(n) AS label
RETURN label, count(*) AS count
ORDER BY label
