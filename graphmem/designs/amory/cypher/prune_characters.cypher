// Characters Amory created for people a story mentions that no story is ABOUT any more
// (a story's character list is capped and evolves): the graph keeps only what it uses.
// params: $space
// returns: deleted
MATCH (c:Character {space: $space, builder: 'amory'})
WHERE NOT EXISTS { (c)--() }
DELETE c
RETURN count(*) AS deleted
