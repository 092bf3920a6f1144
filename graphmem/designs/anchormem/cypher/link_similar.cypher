// SIMILAR {score: cosine} between associated facts; one relationship per pair, directed
// from the smaller id to the larger so a pair found from both ends is stored once.
// params: $space, $rows
// returns: linked
UNWIND $rows AS row
MATCH (a:AtomicFact {space: $space, id: row.a})
MATCH (b:AtomicFact {space: $space, id: row.b})
MERGE (a)-[r:SIMILAR]->(b)
SET r.score = row.score
RETURN count(r) AS linked
