// What the retriever's snapshot was read from: the turns of one space, Amory's stories,
// subplots and items, the side facts its stories semanticised with their source links (a
// stored fact gains sources when a later session restates it), and the last one created.
// Binding a turn creates an item, consolidating creates subplots. A different row means
// the snapshot is stale.
// params: $space
// returns: passages, narratives, subplots, items, side_facts, fact_links, updated
CALL {
  MATCH (p:Passage {space: $space})
  RETURN count(p) AS passages
}
CALL {
  MATCH (n:Narrative {space: $space})
  RETURN count(n) AS narratives, max(n.created_at) AS narrative_at
}
CALL {
  MATCH (s:Subplot {space: $space})
  RETURN count(s) AS subplots, max(s.created_at) AS subplot_at
}
CALL {
  MATCH (i:StoryItem {space: $space})
  RETURN count(i) AS items, max(i.created_at) AS item_at
}
CALL {
  MATCH (:Narrative {space: $space})-[:SEMANTICIZED]->(f:Fact)
  WITH DISTINCT f
  RETURN count(f) AS side_facts, sum(COUNT { (f)-[:FROM]->() }) AS fact_links
}
RETURN passages, narratives, subplots, items, side_facts, fact_links,
       toString(reduce(last = narrative_at, t IN [subplot_at, item_at] |
         CASE WHEN last IS NULL OR t > last THEN t ELSE last END)) AS updated
