// Amory narratives (stories) of one conversation: headline, owner, state of the binding and
// consolidation clock, headline embedding, FROM every turn they hold, ABOUT their characters.
// Backend and fallback per row (a headline written offline after the LLM gave up);
// characters get the run's $backend.
// params: $space, $rows, $backend, $prompt_version
// returns: written
UNWIND $rows AS row
MERGE (n:Narrative {space: $space, id: row.id})
  ON CREATE SET n.created_at = datetime()
SET n.conversation = row.conversation, n.headline = row.headline, n.owner = row.owner,
    n.status = row.status, n.last_bound = row.last_bound, n.consolidated = row.consolidated,
    n.characters = row.characters, n.items = row.items, n.builder = 'amory',
    n.backend = row.backend, n.fallback = row.fallback, n.prompt_version = $prompt_version
WITH n, row
CALL db.create.setNodeVectorProperty(n, 'embedding', row.embedding)
CALL {
  WITH n, row
  UNWIND row.passage_ids AS pid
  MATCH (p:Passage {space: $space, id: pid})
  MERGE (n)-[:FROM]->(p)
}
CALL {
  WITH n
  MATCH (n)-[old:ABOUT]->(:Character)
  DELETE old
}
CALL {
  WITH n, row
  UNWIND row.character_rows AS ch
  MERGE (c:Character {space: $space, id: ch.id})
    ON CREATE SET c.name = ch.name, c.builder = 'amory', c.backend = $backend
  MERGE (n)-[:ABOUT]->(c)
}
RETURN count(n) AS written
