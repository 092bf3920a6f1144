// Forget: delete up to $batch nodes of a space (called until it returns 0).
// params: $space, $batch
// returns: deleted
MATCH (n {space: $space})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
