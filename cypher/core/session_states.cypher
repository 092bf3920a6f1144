// What is stored of some sessions: lets ingest skip sessions already written (resume,
// idempotence); one row per stored session (a session not in the graph has no row).
// params: $space, $session_ids
// returns: session_id, content_hash, passages
UNWIND $session_ids AS sid
MATCH (s:Session {space: $space, id: sid})
RETURN s.id AS session_id, s.content_hash AS content_hash, s.passages AS passages
