// Pin the embedder of a space on its Space node (made here when the space is new: the pin
// comes before the first passage is written), unless one is pinned already.
// params: $space, $embedder
// returns: embedder
MERGE (sp:Space {space: $space, id: $space})
  ON CREATE SET sp.name = $space, sp.created_at = datetime()
SET sp.embedder = coalesce(sp.embedder, $embedder)
RETURN sp.embedder AS embedder
