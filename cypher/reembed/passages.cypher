// The next passages of a space to re-embed, in id order after $after: what the ingest
// renders into the embedded text (graphmem/turns.py).
// params: $space, $after, $batch
// returns: id, speaker, text, caption, date_text
MATCH (p:Passage {space: $space})
WHERE p.id > $after
RETURN p.id AS id, p.speaker AS speaker, p.text AS text, p.caption AS caption,
       p.date_text AS date_text
ORDER BY p.id
LIMIT $batch
