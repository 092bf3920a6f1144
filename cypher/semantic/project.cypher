// The per-space semantic graph for Personalized PageRank (HippoRAG 2): passage and entity
// nodes; passage-entity (MENTIONS), entity-entity (one per fact, weights add up) and SYNONYM
// (weight = similarity) edges, all undirected; every entity of the space is a node. Only
// this space takes part.
// readConcurrency 1: the Cypher-aggregation builder keeps buffers per reading thread; with
// the default 4 a 1,573-node graph held 36 MiB of heap, with 1 it holds 9 MiB (identical
// PageRank scores, and faster to build on 2 cores; benchmarks/README.md).
// params: $space, $graph
// returns: graph, nodes, relationships
CALL {
  MATCH (p:Passage {space: $space})
  OPTIONAL MATCH (p)-[:MENTIONS]->(e:Entity)
  RETURN p AS source, e AS target, 1.0 AS weight
  UNION ALL
  MATCH (s:Entity {space: $space})<-[:SUBJECT]-(:Fact)-[:OBJECT]->(o:Entity)
  RETURN s AS source, o AS target, 1.0 AS weight
  UNION ALL
  MATCH (a:Entity {space: $space})-[r:SYNONYM]->(b:Entity)
  RETURN a AS source, b AS target, r.score AS weight
  UNION ALL
  // Every entity is a node, also one no passage mentions (a speaker linked by name only):
  // a query naming it seeds it, and PageRank refuses a source node it does not know.
  MATCH (e:Entity {space: $space})
  RETURN e AS source, null AS target, 0.0 AS weight
}
WITH source, target, sum(weight) AS weight
WITH gds.graph.project(
  $graph, source, target,
  {relationshipProperties: CASE WHEN target IS NULL THEN {} ELSE {weight: weight} END},
  {undirectedRelationshipTypes: ['*'], readConcurrency: 1}
) AS g
RETURN g.graphName AS graph, g.nodeCount AS nodes, g.relationshipCount AS relationships
