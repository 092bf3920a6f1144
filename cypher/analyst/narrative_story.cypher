// Amory: one narrative told in order (subplot by subplot), each story item with its turns.
// params: $space, $headline
// returns: narrative, subplot, item_order, item, sources
// example: {"headline": ""}
// requires: Narrative
MATCH (n:Narrative {space: $space})
WHERE toLower(n.headline) CONTAINS toLower($headline)
CALL (n) {
  MATCH (n)-[h:HOLDS]->(i:StoryItem)
  RETURN null AS subplot, -1 AS subplot_order, h.order AS item_order, i
  UNION
  MATCH (n)-[o:HAS_SUBPLOT]->(s:Subplot)-[h:HOLDS]->(i:StoryItem)
  RETURN s.headline AS subplot, o.order AS subplot_order, h.order AS item_order, i
}
RETURN n.headline AS narrative, subplot, item_order, i.text AS item,
       [(i)-[:FROM]->(p:Passage) | p.source_id] AS sources
ORDER BY narrative, subplot_order, item_order
