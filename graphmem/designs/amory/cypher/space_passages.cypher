// Every turn of a space with what a hit cites and its embedding, and whether a story of
// its conversation exists (a conversation without one is still short: full history).
// params: $space
// returns: id, source_id, speaker, text, caption, ts, date_text, session_index, turn_index, tokens, embedding, conversation, storied
MATCH (p:Passage {space: $space})
RETURN p.id AS id, p.source_id AS source_id, p.speaker AS speaker, p.text AS text,
       p.caption AS caption, p.ts AS ts, p.date_text AS date_text,
       p.session_index AS session_index, p.turn_index AS turn_index, p.tokens AS tokens,
       p.embedding AS embedding, p.conversation AS conversation,
       EXISTS { MATCH (n:Narrative {space: $space}) WHERE n.conversation = p.conversation } AS storied
ORDER BY p.conversation, p.session_index, p.turn_index
