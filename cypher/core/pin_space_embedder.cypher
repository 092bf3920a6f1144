// Pin the embedder of a space on its Space node, unless one is pinned already.
// params: $space, $embedder
// returns: embedder
MATCH (sp:Space {space: $space, id: $space})
SET sp.embedder = coalesce(sp.embedder, $embedder)
RETURN sp.embedder AS embedder
