// A forget of this request under way (a crash stopped it before its end): the
// conversations it writes again.
// params: $space, $id
// returns: conversations
MATCH (r:ForgetRequest {space: $space, id: $id})
RETURN r.conversations AS conversations
