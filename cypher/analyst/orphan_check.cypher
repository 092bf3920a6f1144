// Orphan check, one row per rule: how many nodes break it (0 everywhere is a healthy space).
// params: $space
// returns: check, offenders, examples
CALL () {
  MATCH (p:Passage {space: $space})
  WHERE NOT (p)-[:IN_SESSION]->(:Session)
  WITH collect(p.id) AS ids
  RETURN 'passage outside a session' AS check, ids
  UNION ALL
  MATCH (s:Session {space: $space})
  WHERE NOT (s)-[:IN_CONVERSATION]->(:Conversation)
  WITH collect(s.id) AS ids
  RETURN 'session outside a conversation' AS check, ids
  UNION ALL
  MATCH (p:Passage {space: $space})
  WHERE NOT (:Character)-[:SPOKE]->(p)
  WITH collect(p.id) AS ids
  RETURN 'turn without a speaker' AS check, ids
  UNION ALL
  MATCH (e:Entity {space: $space})
  WHERE NOT (e)--()
  WITH collect(e.name) AS ids
  RETURN 'entity with no relationship' AS check, ids
  UNION ALL
  CALL db.labels() YIELD label
  CALL (label) {
    MATCH (n:$(label) {space: $space})
    WHERE n.builder IS NOT NULL AND n.builder <> 'core' AND NOT n:Entity AND NOT n:Character
      AND NOT (n)-[:FROM]->(:Passage)
    RETURN collect(label + ' ' + n.id) AS found
  }
  WITH collect(found) AS found
  RETURN 'derived node without FROM' AS check, reduce(acc = [], f IN found | acc + f) AS ids
  UNION ALL
  CALL db.labels() YIELD label
  CALL (label) {
    MATCH (n:$(label) {space: $space})-[:FROM]->(p:Passage)
    WHERE p.space <> $space
    RETURN collect(DISTINCT label + ' ' + n.id) AS found
  }
  WITH collect(found) AS found
  RETURN 'FROM into another space' AS check, reduce(acc = [], f IN found | acc + f) AS ids
}
RETURN check, size(ids) AS offenders, ids[..5] AS examples
