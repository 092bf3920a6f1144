// The stored turns of sessions about to be rewritten, with their embeddings: a turn whose
// rendered text is unchanged keeps its vector instead of being embedded again.
// params: $space, $session_ids
// returns: speaker, text, caption, date_text, embedding
UNWIND $session_ids AS sid
MATCH (:Session {space: $space, id: sid})<-[:IN_SESSION]-(p:Passage)
WHERE p.embedding IS NOT NULL
RETURN p.speaker AS speaker, p.text AS text, p.caption AS caption, p.date_text AS date_text,
       p.embedding AS embedding
