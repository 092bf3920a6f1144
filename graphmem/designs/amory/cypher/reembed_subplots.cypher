// The next Subplot nodes of a space to re-embed, in id order after $after, with the headline and
// characters the builder embedded (headline_text; graphmem reembed).
// params: $space, $after, $batch
// returns: id, headline, characters
MATCH (n:Subplot {space: $space})
WHERE n.id > $after AND n.embedding IS NOT NULL
RETURN n.id AS id, n.headline AS headline, n.characters AS characters
ORDER BY n.id
LIMIT $batch
