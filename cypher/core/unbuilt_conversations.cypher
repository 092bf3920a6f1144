// Conversations of a space with a session a builder has not completed: a rewritten session
// of one conversation can release memories that also came from another's (a shared fact),
// and that one is built again though the input does not hold it.
// params: $space, $builder
// returns: conversation, speakers
MATCH (s:Session {space: $space})
WHERE NOT $builder IN coalesce(s.built_by, [])
WITH DISTINCT s.conversation AS conversation
MATCH (c:Conversation {space: $space, id: conversation})
RETURN conversation, coalesce(c.speakers, []) AS speakers
ORDER BY conversation
