// Every story of a space for the retriever: headline, owner, characters, headline vector,
// its turns in story order and its subplots (span of story positions, headline, vector).
// params: $space
// returns: id, conversation, headline, owner, characters, embedding, passage_ids, subplots
MATCH (n:Narrative {space: $space})
RETURN n.id AS id, n.conversation AS conversation, n.headline AS headline, n.owner AS owner,
       n.characters AS characters, n.embedding AS embedding,
       COLLECT {
         MATCH (n)-[h:HOLDS]->(:StoryItem)-[:FROM]->(p:Passage)
         WITH h, p ORDER BY h.order
         RETURN p.id
       } AS passage_ids,
       COLLECT {
         MATCH (n)-[h:HAS_SUBPLOT]->(s:Subplot)
         WITH h, s ORDER BY h.order
         RETURN {id: s.id, headline: s.headline, start: s.start, end: s.end,
                 characters: s.characters, embedding: s.embedding}
       } AS subplots
ORDER BY id
