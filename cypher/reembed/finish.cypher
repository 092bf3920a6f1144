// A space's re-embedding is complete: pin the new embedder, clear the marker and cursor.
// params: $space, $embedder
// returns: embedder
MATCH (sp:Space {space: $space, id: $space})
SET sp.embedder = $embedder
REMOVE sp.reembed_to, sp.reembed_cursor
RETURN sp.embedder AS embedder
