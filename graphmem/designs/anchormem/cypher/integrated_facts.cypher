// Which of the given facts an associative event already integrates (redundancy pruning).
// params: $space, $ids
// returns: id
UNWIND $ids AS fid
MATCH (:AssocEvent {space: $space})-[:INTEGRATES]->(f:AtomicFact {space: $space, id: fid})
RETURN DISTINCT f.id AS id
