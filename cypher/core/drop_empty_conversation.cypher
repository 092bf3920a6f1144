// A conversation whose every session was forgotten, and the speakers no turn of the space
// is spoken by any more.
// params: $space, $conversation_id
// returns: conversations, speakers
OPTIONAL MATCH (c:Conversation {space: $space, id: $conversation_id})
  WHERE NOT EXISTS { MATCH (:Session {space: $space, conversation: $conversation_id}) }
DETACH DELETE c
WITH count(c) AS conversations
OPTIONAL MATCH (sp:Speaker {space: $space})
  WHERE NOT (sp)-[:SPOKE]->()
DETACH DELETE sp
RETURN conversations, count(sp) AS speakers
