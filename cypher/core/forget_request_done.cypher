// A forget finished: its request goes.
// params: $space, $id
// returns: deleted
MATCH (r:ForgetRequest {space: $space, id: $id})
DETACH DELETE r
RETURN count(*) AS deleted
