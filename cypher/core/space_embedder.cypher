// The embedder a space was built with (null: never pinned, a space written before spaces
// were pinned one by one), whether it exists and holds passages, and the embedder a
// `graphmem reembed` under way is moving it to (null when none is).
// params: $space
// returns: exists, passages, embedder, reembed_to
OPTIONAL MATCH (sp:Space {space: $space, id: $space})
RETURN sp IS NOT NULL AS exists,
       COUNT { MATCH (p:Passage {space: $space}) } AS passages,
       sp.embedder AS embedder,
       sp.reembed_to AS reembed_to
