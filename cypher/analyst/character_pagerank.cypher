// GDS PageRank of characters over who said what, who took part in which event or scene and
// which entities a turn mentions (an in-memory graph projected, ranked and dropped here).
// params: $space
// returns: character, score, turns
CALL () {
  MATCH (c:Character {space: $space})-[:SPOKE|IS|IN_SCENE]->(x)
  RETURN c AS source, x AS target
  UNION
  MATCH (e:Event {space: $space})-[:PARTICIPANT]->(x)
  RETURN e AS source, x AS target
  UNION
  MATCH (p:Passage {space: $space})-[:MENTIONS]->(x:Entity)
  RETURN p AS source, x AS target
}
WITH gds.graph.project('analyst-pagerank-' + randomUUID(), source, target, {},
                       {undirectedRelationshipTypes: ['*']}) AS g
WHERE g IS NOT NULL
CALL gds.pageRank.stream(g.graphName) YIELD nodeId, score
WITH g, collect({node: gds.util.asNode(nodeId), score: score}) AS ranked
CALL gds.graph.drop(g.graphName, false) YIELD graphName
UNWIND ranked AS r
WITH r.node AS c, r.score AS score
WHERE c:Character
RETURN c.name AS character, round(score, 4) AS score,
       COUNT { MATCH (c)-[:SPOKE]->(p:Passage) RETURN p } AS turns
ORDER BY score DESC, character
