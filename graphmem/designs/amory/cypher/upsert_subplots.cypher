// Subplots of a consolidated story: headline, span of story positions, the items they
// hold, FROM their turns and ABOUT their characters. Backend and fallback per row (found
// offline after the LLM gave up on the consolidation); characters get the run's $backend.
// params: $space, $rows, $backend, $prompt_version
// returns: written
UNWIND $rows AS row
MATCH (n:Narrative {space: $space, id: row.story_id})
MERGE (s:Subplot {space: $space, id: row.id})
  ON CREATE SET s.created_at = datetime()
SET s.headline = row.headline, s.start = row.start, s.end = row.end, s.story = row.story_id,
    s.characters = row.characters, s.builder = 'amory', s.backend = row.backend,
    s.fallback = row.fallback, s.prompt_version = $prompt_version
MERGE (n)-[h:HAS_SUBPLOT]->(s)
SET h.order = row.order
WITH s, row
CALL db.create.setNodeVectorProperty(s, 'embedding', row.embedding)
CALL {
  WITH s, row
  UNWIND row.item_ids AS iid
  MATCH (i:StoryItem {space: $space, id: iid})
  MERGE (s)-[:HOLDS]->(i)
}
CALL {
  WITH s, row
  UNWIND row.passage_ids AS pid
  MATCH (p:Passage {space: $space, id: pid})
  MERGE (s)-[:FROM]->(p)
}
CALL {
  WITH s, row
  UNWIND row.character_rows AS ch
  MERGE (c:Character {space: $space, id: ch.id})
    ON CREATE SET c.name = ch.name, c.builder = 'amory', c.backend = $backend
  MERGE (s)-[:ABOUT]->(c)
}
RETURN count(s) AS written
