// NEXT chain between consecutive passages (across session borders too).
// params: $space, $pairs
// returns: linked
UNWIND $pairs AS pair
MATCH (a:Passage {space: $space, id: pair[0]})
MATCH (b:Passage {space: $space, id: pair[1]})
MERGE (a)-[:NEXT]->(b)
RETURN count(*) AS linked
