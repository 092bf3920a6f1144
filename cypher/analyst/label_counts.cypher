// What is in one space: nodes per label (each label looked up through its own index).
// params: $space
// returns: label, nodes
CALL db.labels() YIELD label
CALL (label) {
  MATCH (n:$(label) {space: $space})
  RETURN count(n) AS nodes
}
WITH label, nodes WHERE nodes > 0
RETURN label, nodes
ORDER BY nodes DESC, label
