// What changed between two dates: each statement that stopped holding in [$from, $to]
// (its valid_to), whose state it was, what replaced it, and the turns of both.
// params: $space, $from, $to
// returns: label, subject, earlier, later, valid_to, verdict, earlier_turn, later_turn
// example: {"from": "2024-01-01", "to": "2024-12-31"}
// requires: Superseded
MATCH (earlier:Superseded {space: $space})
WHERE date($from) <= earlier.valid_to <= date($to)
MATCH (later)-[r:SUPERSEDES]->(earlier)
MATCH (earlier)-[:FROM]->(ep:Passage)
MATCH (later)-[:FROM]->(lp:Passage)
WITH earlier, later, r, min(ep.source_id) AS earlier_turn, min(lp.source_id) AS later_turn
RETURN [l IN labels(earlier) WHERE l <> 'Superseded'][0] AS label,
       earlier.claim_subject AS subject, coalesce(earlier.text, earlier.value) AS earlier,
       coalesce(later.text, later.value) AS later, toString(earlier.valid_to) AS valid_to,
       r.verdict AS verdict, earlier_turn, later_turn
ORDER BY valid_to, label, earlier_turn
