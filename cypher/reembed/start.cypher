// Mark a space as being re-embedded with $embedder. The cursor is kept when the same
// re-embedding resumes, and starts again (null) for another target.
// params: $space, $embedder
// returns: cursor
MATCH (sp:Space {space: $space, id: $space})
SET sp.reembed_cursor = CASE WHEN sp.reembed_to = $embedder THEN sp.reembed_cursor END,
    sp.reembed_to = $embedder
RETURN sp.reembed_cursor AS cursor
