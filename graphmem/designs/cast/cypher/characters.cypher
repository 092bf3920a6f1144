// Characters of a space with the number of scenes in their profile.
// params: $space
// returns: name, speaker, scenes
MATCH (c:Character {space: $space})
OPTIONAL MATCH (c)-[:IN_SCENE]->(s:Scene)
RETURN c.name AS name, c:Speaker AS speaker, count(s) AS scenes
ORDER BY scenes DESC, name
