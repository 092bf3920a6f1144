// Conversations as timelines: each session with its date, speakers, turns and first line.
// params: $space
// returns: conversation, session, started_at, date_text, speakers, turns, opening
MATCH (c:Conversation {space: $space})<-[:IN_CONVERSATION]-(s:Session)
MATCH (s)<-[:IN_SESSION]-(p:Passage)
WITH c, s, p ORDER BY p.turn_index
WITH c, s, collect(p) AS turns
RETURN c.id AS conversation, s.source_id AS session, s.started_at AS started_at,
       s.date_text AS date_text,
       reduce(names = [], t IN turns |
              CASE WHEN t.speaker IN names THEN names ELSE names + t.speaker END) AS speakers,
       size(turns) AS turns, turns[0].speaker + ' said ' + turns[0].text AS opening
ORDER BY conversation, s.index
