// The vector example design's stats section.
// params: $space
// returns: gists
MATCH (g:Gist {space: $space})
RETURN count(g) AS gists
