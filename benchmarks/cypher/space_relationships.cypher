// Relationships that leave the core-layer nodes of one space (benchmarks: the caller keeps
// those whose both ends it copies).
// params: $space
// returns: a, b, type, props
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
MATCH (n)-[r]->(m)
RETURN elementId(n) AS a, elementId(m) AS b, type(r) AS type, properties(r) AS props
