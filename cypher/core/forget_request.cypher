// A forget under way, written before its first change: a rerun after a crash finds what it
// was asked (turn ids, never texts), the builders to run and the conversations to write
// again, and finishes it.
// params: $space, $id, $selection, $builders, $conversations
// returns: id, builders, conversations
MERGE (r:ForgetRequest {space: $space, id: $id})
  ON CREATE SET r.selection = $selection, r.builders = $builders,
    r.conversations = $conversations
RETURN r.id AS id, r.builders AS builders, r.conversations AS conversations
