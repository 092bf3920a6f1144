// The test design "tally": a released session's entry goes (entries name sessions by the
// input's id, which the Session node keeps).
// params: $space, $session_id
// returns: -
MATCH (s:Session {space: $space, id: $session_id})
MATCH (t:Tally {space: $space, id: 'tally'})
SET t.entries = [e IN t.entries WHERE split(e, '=')[0] <> s.source_id]
