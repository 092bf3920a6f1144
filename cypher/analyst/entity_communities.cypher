// GDS Louvain communities of entities: linked when a fact relates them, when they are
// synonyms, or when one turn mentions both.
// params: $space
// returns: community, size, members
CALL () {
  MATCH (s:Entity {space: $space})<-[:SUBJECT]-(:Fact)-[:OBJECT]->(o:Entity)
  RETURN s AS source, o AS target
  UNION
  MATCH (a:Entity {space: $space})-[:SYNONYM]->(b:Entity)
  RETURN a AS source, b AS target
  UNION
  MATCH (a:Entity {space: $space})<-[:MENTIONS]-(:Passage)-[:MENTIONS]->(b:Entity)
  WHERE elementId(a) < elementId(b)
  RETURN a AS source, b AS target
}
WITH gds.graph.project('analyst-louvain-' + randomUUID(), source, target, {},
                       {undirectedRelationshipTypes: ['*']}) AS g
WHERE g IS NOT NULL
// One thread: Louvain is then repeatable run to run, and on 2 cores faster (0.3 s against 5).
CALL gds.louvain.stream(g.graphName, {concurrency: 1}) YIELD nodeId, communityId
WITH g, collect({node: gds.util.asNode(nodeId), community: communityId}) AS found
CALL gds.graph.drop(g.graphName, false) YIELD graphName
UNWIND found AS f
WITH f.community AS community, collect(f.node.name) AS members
RETURN community, size(members) AS size, members
ORDER BY size DESC, community
