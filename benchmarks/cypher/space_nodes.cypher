// The core layer of one space (benchmarks: the source a scale run replays under other
// space names): every node with its labels, properties and embedding apart, and a key.
// One branch per core label, so each seeks the label's space index.
// params: $space
// returns: key, labels, props, embedding
CALL {
  MATCH (n:Space {space: $space}) RETURN n
  UNION
  MATCH (n:Conversation {space: $space}) RETURN n
  UNION
  MATCH (n:Session {space: $space}) RETURN n
  UNION
  MATCH (n:Passage {space: $space}) RETURN n
  UNION
  MATCH (n:Character {space: $space}) RETURN n
}
RETURN elementId(n) AS key, labels(n) AS labels,
       [k IN keys(n) WHERE k <> 'embedding' | [k, n[k]]] AS props, n.embedding AS embedding
