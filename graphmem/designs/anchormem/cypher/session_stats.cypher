// Per-session AnchorMem counters: candidate groups and discarded groups seeded by the
// session's facts. SET, not increment, so rebuilding a session never double counts.
// params: $space, $rows
// returns: updated
UNWIND $rows AS row
MATCH (s:Session {space: $space, id: row.session_id})
SET s.anchormem_candidates = row.candidates, s.anchormem_discarded = row.discarded
RETURN count(s) AS updated
