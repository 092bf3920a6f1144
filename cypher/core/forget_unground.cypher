// A conversation a forget builds again: the relationships of its passages to nodes
// without sources (an entity's MENTIONS) go, and those nodes are returned for
// core.prune_loose, which deletes the ones nothing grounds any more (built again, they
// take the kept turns' words).
// params: $space, $conversation
// returns: loose
MATCH (p:Passage {space: $space, conversation: $conversation})-[r]-(n)
  WHERE n.builder IS NOT NULL AND n.builder <> 'core' AND NOT (n)-[:FROM]->()
DELETE r
RETURN collect(DISTINCT elementId(n)) AS loose
