// Whether a forget of this request is under way (a crash stopped it before its end).
// params: $space, $id
// returns: id
MATCH (r:ForgetRequest {space: $space, id: $id})
RETURN r.id AS id
