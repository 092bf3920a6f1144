// The characters of a space: speakers and the persons the designs found (graphmem eval
// precision: character labels).
// params: $space
// returns: value, speaker
MATCH (c:Character {space: $space})
RETURN c.name AS value, c:Speaker AS speaker
