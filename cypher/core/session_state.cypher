// What is stored of a session: lets ingest skip sessions already written (resume, idempotence).
// params: $space, $session_id
// returns: content_hash, passages
OPTIONAL MATCH (s:Session {space: $space, id: $session_id})
RETURN s.content_hash AS content_hash, s.passages AS passages
