// A forget under way, written before its first change: a rerun after a crash finds what it
// was asked (turn ids, never texts), the builders to run on each conversation (JSON), the
// conversations to write again and when it started (the caches sweep what was not used
// since), and finishes it.
// params: $space, $id, $selection, $builders, $conversations, $started_at
// returns: id, builders, conversations, started_at
MERGE (r:ForgetRequest {space: $space, id: $id})
  ON CREATE SET r.selection = $selection, r.builders = $builders,
    r.conversations = $conversations, r.started_at = $started_at
RETURN r.id AS id, r.builders AS builders, r.conversations AS conversations,
  coalesce(r.started_at, $started_at) AS started_at
