// Turns per session of one conversation before a session index: the step clock of the
// sessions built by earlier batches (a step is a turn pair of one session).
// params: $space, $conversation, $before
// returns: session_index, turns
MATCH (p:Passage {space: $space, conversation: $conversation})
WHERE p.session_index < $before
RETURN p.session_index AS session_index, count(p) AS turns
ORDER BY session_index
