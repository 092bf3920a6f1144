// The stories of one conversation with their items (in story order) and subplots: the
// state the builder resumes from.
// params: $space, $conversation
// returns: id, headline, owner, status, last_bound, consolidated, fallback, embedding, items, subplots
MATCH (n:Narrative {space: $space, conversation: $conversation})
RETURN n.id AS id, n.headline AS headline, n.owner AS owner, n.status AS status,
       n.last_bound AS last_bound, n.consolidated AS consolidated, n.fallback AS fallback,
       n.embedding AS embedding,
       COLLECT {
         MATCH (n)-[h:HOLDS]->(i:StoryItem)-[:FROM]->(p:Passage)
         WITH h, i, p ORDER BY h.order
         RETURN {passage_id: p.id, step: i.step, part: i.part, text: i.text,
                 phrases: i.phrases, persons: i.persons, fallback: i.fallback}
       } AS items,
       COLLECT {
         MATCH (n)-[h:HAS_SUBPLOT]->(s:Subplot)
         WITH h, s ORDER BY h.order
         RETURN {headline: s.headline, start: s.start, end: s.end, fallback: s.fallback}
       } AS subplots
ORDER BY id
