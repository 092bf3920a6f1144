// The builders that have built some session of each of $conversations: what a forget builds
// each of them with again (a builder run on a conversation builds all of its sessions).
// params: $space, $conversations
// returns: conversation, builders
MATCH (s:Session {space: $space})
WHERE s.conversation IN $conversations
WITH s.conversation AS conversation, collect(coalesce(s.built_by, [])) AS lists
RETURN conversation,
  reduce(acc = [], l IN lists | acc + [b IN l WHERE NOT b IN acc]) AS builders
ORDER BY conversation
