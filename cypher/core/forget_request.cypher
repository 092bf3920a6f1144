// A forget under way, written before its first change: a rerun after a crash finds what it
// was asked (turn ids, never texts) and the builders to run, and finishes it.
// params: $space, $id, $selection, $builders
// returns: id
MERGE (r:ForgetRequest {space: $space, id: $id})
  ON CREATE SET r.selection = $selection, r.builders = $builders
RETURN r.id AS id, r.builders AS builders
