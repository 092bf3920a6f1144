// The example design's stats section.
// params: $space
// returns: keywords, links
MATCH (k:Keyword {space: $space})
OPTIONAL MATCH (k)-[f:FROM]->(:Passage)
RETURN count(DISTINCT k) AS keywords, count(f) AS links
