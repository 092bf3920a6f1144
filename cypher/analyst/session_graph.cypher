// Who said what about which things in one session, small enough to draw: its turns, the
// characters who spoke them (SPOKE) and up to three things each turn mentions (MENTIONS;
// an entity named like one of the speakers is left to the speaker), every node with its
// labels, its text properties (the Browser style's captions name them) and the nodes it
// points at among these. notebooks/03_explore_memory.ipynb draws it.
// params: $space, $session
// returns: id, labels, properties, links
// example: {"session": "s3"}
MATCH (:Session {space: $space, source_id: $session})<-[:IN_SESSION]-(p:Passage)
WITH p ORDER BY p.turn_index
WITH collect(p) AS turns
CALL (turns) {
  UNWIND turns AS p
  MATCH (c:Character)-[:SPOKE]->(p)
  RETURN collect(DISTINCT c) AS speakers
}
CALL (turns, speakers) {
  UNWIND turns AS p
  MATCH (p)-[:MENTIONS]->(e:Entity)
  WHERE NOT toLower(e.name) IN [c IN speakers | toLower(c.name)]
  WITH p, e ORDER BY e.name
  WITH p, collect(e)[..3] AS named
  UNWIND named AS e
  RETURN collect(DISTINCT e) AS entities
}
WITH turns + speakers + entities AS shown
UNWIND shown AS n
OPTIONAL MATCH (n)-[:SPOKE|MENTIONS]->(m)
WHERE m IN shown
WITH n, collect(DISTINCT elementId(m)) AS links
RETURN elementId(n) AS id, labels(n) AS labels,
       [k IN keys(n) WHERE valueType(n[k]) STARTS WITH 'STRING' | [k, n[k]]] AS properties,
       links
ORDER BY n.turn_index, labels[0], n.name
