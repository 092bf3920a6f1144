// A conversation as stored, to write it again without what is forgotten: its speakers,
// its title and its sessions in order.
// params: $space, $conversation_id
// returns: speakers, title, sessions
MATCH (c:Conversation {space: $space, id: $conversation_id})
OPTIONAL MATCH (s:Session {space: $space, conversation: $conversation_id})
WITH c, s ORDER BY s.index
RETURN c.speakers AS speakers, c.title AS title, collect(s.id) AS sessions
