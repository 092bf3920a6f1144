// Forgets under way in any space (a crash stopped them): a compaction waits for them.
// params: none
// returns: space
MATCH (r:ForgetRequest)
RETURN DISTINCT r.space AS space
ORDER BY space
