// The other conversations that share a derived node with $conversations (a fact said in
// both): a forget builds them again too, as a build without the forgotten turns would.
// params: $space, $conversations
// returns: more
MATCH (p:Passage {space: $space})
  WHERE p.conversation IN $conversations
MATCH (p)<-[:FROM]-(d)-[:FROM]->(q:Passage)
  WHERE NOT q.conversation IN $conversations
RETURN collect(DISTINCT q.conversation) AS more
