// Relationships per type and endpoint labels in one space (a Speaker counts as Character).
// params: $space
// returns: from_label, type, to_label, relationships
CALL db.labels() YIELD label
WITH label WHERE label <> 'Speaker'
CALL (label) {
  MATCH (a:$(label) {space: $space})-[r]->(b)
  RETURN type(r) AS type, [l IN labels(b) WHERE l <> 'Speaker'][0] AS to_label,
         count(r) AS relationships
}
RETURN label AS from_label, type, to_label, relationships
ORDER BY relationships DESC, from_label, type
