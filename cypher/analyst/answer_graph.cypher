// The graph around an answer, small enough to draw: the turns it cites, one memory of each
// kind built from them (FROM) and two entities each turn mentions, every node with its
// labels, its text properties (the Browser style's captions name them) and the nodes it
// points at among these. notebooks/01_quickstart.ipynb draws it.
// params: $space, $source_ids
// returns: id, labels, properties, links
// example: {"source_ids": ["s3:1", "s3:3"]}
MATCH (p:Passage {space: $space})
WHERE p.source_id IN $source_ids
WITH collect(p) AS turns
CALL (turns) {
  UNWIND turns AS p
  MATCH (p)<-[:FROM]-(d)
  WITH labels(d)[0] AS kind, d ORDER BY d.id
  WITH kind, collect(DISTINCT d)[0] AS memory
  RETURN collect(memory) AS memories
}
CALL (turns) {
  UNWIND turns AS p
  MATCH (p)-[:MENTIONS]->(e:Entity)
  WITH p, e ORDER BY e.name
  WITH p, collect(e)[..2] AS named
  UNWIND named AS e
  RETURN collect(DISTINCT e) AS entities
}
WITH turns + memories + entities AS shown
UNWIND shown AS n
OPTIONAL MATCH (n)-[:FROM|MENTIONS]->(m)
WHERE m IN shown
WITH n, collect(DISTINCT elementId(m)) AS links
RETURN elementId(n) AS id, labels(n) AS labels,
       [k IN keys(n) WHERE valueType(n[k]) STARTS WITH 'STRING' | [k, n[k]]] AS properties,
       links
ORDER BY n.session_index, n.turn_index, labels[0], n.id
