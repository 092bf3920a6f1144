// Passages in the whole database and in one space: the over-fetch factor for global indexes.
// params: $space
// returns: total, in_space
MATCH (p:Passage)
WITH count(p) AS total
OPTIONAL MATCH (q:Passage {space: $space})
RETURN total, count(q) AS in_space
