// Every scene of a space with its summary vector and turns: the retriever's snapshot.
// params: $space
// returns: id, character, role, start, end, date_text, places, participants, summary, embedding, passage_ids
MATCH (s:Scene {space: $space})
RETURN s.id AS id, s.character AS character, s.role AS role, s.start AS start,
       s.end AS end, s.date_text AS date_text, s.places AS places,
       s.participants AS participants, s.summary AS summary, s.embedding AS embedding,
       [(s)-[:FROM]->(p:Passage) | p.id] AS passage_ids
ORDER BY id
