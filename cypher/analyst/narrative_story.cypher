// Amory: one narrative told in order, each story item once, with the subplot that holds it
// (null: the main line) and its turns.
// params: $space, $headline
// returns: narrative, subplot, item_order, item, sources
// example: {"headline": ""}
// requires: Narrative
MATCH (n:Narrative {space: $space})
WHERE toLower(n.headline) CONTAINS toLower($headline)
CALL (n) {
  MATCH (n)-[h:HOLDS]->(i:StoryItem)
  RETURN i, h.order AS item_order
  UNION
  MATCH (n)-[:HAS_SUBPLOT]->(:Subplot)-[:HOLDS]->(i:StoryItem)
  WHERE NOT (n)-[:HOLDS]->(i)
  RETURN i, null AS item_order
}
OPTIONAL MATCH (n)-[:HAS_SUBPLOT]->(s:Subplot)-[:HOLDS]->(i)
WITH n, i, item_order, collect(s.headline)[0] AS subplot
RETURN n.headline AS narrative, subplot, item_order, i.text AS item,
       [(i)-[:FROM]->(p:Passage) | p.source_id] AS sources
ORDER BY narrative, item_order, item
