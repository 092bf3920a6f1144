// Sessions of a space whose stored passages differ from the count they were written with
// (a half-written session; the fuzz and crash tests expect none).
// params: $space
// returns: session_id, declared, stored
MATCH (s:Session {space: $space})
OPTIONAL MATCH (p:Passage {space: $space})-[:IN_SESSION]->(s)
WITH s, count(p) AS stored
WHERE stored <> coalesce(s.passages, -1)
RETURN s.id AS session_id, s.passages AS declared, stored
