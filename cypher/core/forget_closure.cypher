// The other conversations a forget builds again too, as a build without the forgotten
// turns would: those sharing a derived node with $conversations (a fact said in both) or
// a node without sources that passages of both touch (an entity both mention: its name is
// its first mention's).
// params: $space, $conversations
// returns: more
CALL {
  MATCH (p:Passage {space: $space})
    WHERE p.conversation IN $conversations
  MATCH (p)<-[:FROM]-(d)-[:FROM]->(q:Passage)
    WHERE NOT q.conversation IN $conversations
  RETURN collect(DISTINCT q.conversation) AS by_source
}
CALL {
  MATCH (p:Passage {space: $space})
    WHERE p.conversation IN $conversations
  MATCH (p)--(n)--(q:Passage)
    WHERE n.builder IS NOT NULL AND n.builder <> 'core' AND NOT (n)-[:FROM]->()
      AND NOT q.conversation IN $conversations
  RETURN collect(DISTINCT q.conversation) AS by_touch
}
RETURN by_source + [c IN by_touch WHERE NOT c IN by_source] AS more
