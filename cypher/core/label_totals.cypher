// Nodes of every ranked label (one with a vector or full-text index, see schema/) in the
// whole database and in one space: the over-fetch factor for the global indexes
// (graphmem.overfetch). Labels are spelled out: a dynamic label would scan every node.
// params: $space
// returns: label, total, in_space
CALL {
  MATCH (n:Passage) WITH count(n) AS total
  OPTIONAL MATCH (m:Passage {space: $space})
  RETURN 'Passage' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:Entity) WITH count(n) AS total
  OPTIONAL MATCH (m:Entity {space: $space})
  RETURN 'Entity' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:Fact) WITH count(n) AS total
  OPTIONAL MATCH (m:Fact {space: $space})
  RETURN 'Fact' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:EventFrame) WITH count(n) AS total
  OPTIONAL MATCH (m:EventFrame {space: $space})
  RETURN 'EventFrame' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:AtomicFact) WITH count(n) AS total
  OPTIONAL MATCH (m:AtomicFact {space: $space})
  RETURN 'AtomicFact' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:AssocEvent) WITH count(n) AS total
  OPTIONAL MATCH (m:AssocEvent {space: $space})
  RETURN 'AssocEvent' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:View) WITH count(n) AS total
  OPTIONAL MATCH (m:View {space: $space})
  RETURN 'View' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:Scene) WITH count(n) AS total
  OPTIONAL MATCH (m:Scene {space: $space})
  RETURN 'Scene' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:Fragment) WITH count(n) AS total
  OPTIONAL MATCH (m:Fragment {space: $space})
  RETURN 'Fragment' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:Insight) WITH count(n) AS total
  OPTIONAL MATCH (m:Insight {space: $space})
  RETURN 'Insight' AS label, total, count(m) AS in_space
  UNION ALL
  MATCH (n:Narrative) WITH count(n) AS total
  OPTIONAL MATCH (m:Narrative {space: $space})
  RETURN 'Narrative' AS label, total, count(m) AS in_space
}
RETURN label, total, in_space
