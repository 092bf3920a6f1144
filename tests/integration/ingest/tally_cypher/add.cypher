// The test design "tally": the turns of each built session, kept on one node per space
// without FROM (what the core's release cannot reach).
// params: $space, $entries
// returns: -
MERGE (t:Tally {space: $space, id: 'tally'})
  ON CREATE SET t.builder = 'tally', t.entries = []
WITH t, [e IN t.entries WHERE NOT split(e, '=')[0] IN [x IN $entries | split(x, '=')[0]]]
  + $entries AS merged
SET t.entries = COLLECT { UNWIND merged AS e RETURN e ORDER BY e }
