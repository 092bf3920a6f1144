// Passages sharing the most keywords with the question.
// params: $space, $words, $k
// returns: id, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens, score, matched
MATCH (k:Keyword {space: $space})-[:FROM]->(p:Passage {space: $space})
WHERE k.word IN $words
WITH p, collect(k.word) AS matched
RETURN p.id AS id, p.source_id AS source_id, p.speaker AS speaker, p.text AS text,
       p.caption AS caption, p.ts AS ts, p.date_text AS date_text,
       p.session_index AS session_index, p.turn_index AS turn_index, p.tokens AS tokens,
       toFloat(size(matched)) AS score, matched
ORDER BY score DESC, p.session_index, p.turn_index
LIMIT $k
