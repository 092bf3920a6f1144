// Sessions and their derived memory: turns, derived nodes citing them (per label) and the
// builders that completed them; `derived = 0` is a session without derived memory.
// params: $space
// returns: conversation, session, started_at, turns, derived, by_label, built_by
MATCH (s:Session {space: $space})
OPTIONAL MATCH (s)<-[:IN_SESSION]-(p:Passage)
OPTIONAL MATCH (p)<-[:FROM]-(d)
WITH s, count(DISTINCT p) AS turns, collect(DISTINCT d) AS nodes
WITH s, turns, [x IN nodes | labels(x)[0]] AS kinds
RETURN s.conversation AS conversation, s.source_id AS session, s.started_at AS started_at,
       turns, size(kinds) AS derived,
       [k IN reduce(seen = [], x IN kinds | CASE WHEN x IN seen THEN seen ELSE seen + x END) |
        k + ' ' + toString(size([y IN kinds WHERE y = k]))] AS by_label,
       coalesce(s.built_by, []) AS built_by
ORDER BY conversation, s.index
