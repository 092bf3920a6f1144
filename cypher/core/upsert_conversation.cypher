// Create (or keep) a space and one conversation in it.
// params: $space, $conversation_id, $source_id, $speakers, $title
// ($title: an export's conversation title; null keeps the stored one)
// returns: conversation
MERGE (s:Space {space: $space, id: $space})
  ON CREATE SET s.name = $space, s.created_at = datetime()
MERGE (c:Conversation {space: $space, id: $conversation_id})
  ON CREATE SET c.created_at = datetime()
SET c.source_id = $source_id, c.speakers = $speakers, c.title = coalesce($title, c.title)
MERGE (c)-[:IN_SPACE]->(s)
RETURN c.id AS conversation
