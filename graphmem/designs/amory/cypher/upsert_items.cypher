// Story items (excerpts): the text a reader sees, a short caption for the Browser, the
// step that bound it, FROM its turn; the narrative HOLDS it at its position in the story.
// Backend and fallback per row (bound offline after the LLM gave up on the binding or
// initialisation).
// params: $space, $rows, $prompt_version
// returns: written
UNWIND $rows AS row
MATCH (n:Narrative {space: $space, id: row.story_id})
MATCH (p:Passage {space: $space, id: row.passage_id})
MERGE (i:StoryItem {space: $space, id: row.id})
  ON CREATE SET i.created_at = datetime()
SET i.text = row.text, i.caption = row.caption, i.ts = row.ts, i.step = row.step, i.part = row.part,
    i.phrases = row.phrases, i.persons = row.persons,
    i.story = row.story_id, i.builder = 'amory', i.backend = row.backend,
    i.fallback = row.fallback, i.prompt_version = $prompt_version
MERGE (i)-[:FROM]->(p)
MERGE (n)-[h:HOLDS]->(i)
SET h.order = row.order
RETURN count(i) AS written
