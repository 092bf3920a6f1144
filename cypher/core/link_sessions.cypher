// NEXT chain between consecutive sessions of a conversation.
// params: $space, $pairs
// returns: linked
UNWIND $pairs AS pair
MATCH (a:Session {space: $space, id: pair[0]})
MATCH (b:Session {space: $space, id: pair[1]})
MERGE (a)-[:NEXT]->(b)
RETURN count(*) AS linked
