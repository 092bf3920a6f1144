// A session forgotten whole (core.release_session has released what it fed): its
// passages and the session node.
// params: $space, $session_id
// returns: passages
MATCH (s:Session {space: $space, id: $session_id})
CALL {
  WITH s
  MATCH (p:Passage {space: $space, session: s.id})
  DETACH DELETE p
  RETURN count(p) AS passages
}
DETACH DELETE s
RETURN passages
