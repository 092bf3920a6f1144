// The conversations of a space in the order they were first stored, each with its title,
// its speakers and its sessions in order (graphmem export).
// params: $space
// returns: conversation, speakers, title, sessions
MATCH (c:Conversation {space: $space})
OPTIONAL MATCH (s:Session {space: $space, conversation: c.id})
WITH c, s ORDER BY s.index
WITH c, collect(s.id) AS sessions
RETURN c.id AS conversation, c.speakers AS speakers, c.title AS title, sessions
ORDER BY c.created_at, c.id
