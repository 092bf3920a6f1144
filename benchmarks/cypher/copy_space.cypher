// A copy of a space's nodes and relationships under a new space name (benchmarks: a scale
// run replays stored conversations, vectors included, without embedding them again).
// $nodes: [{labels, props, embedding}] (props without space); $rels: [{a, b, type, props}]
// with a and b indexes into $nodes. CREATE, not MERGE: the space is new, and the (space,
// id) constraints still refuse a second copy.
// params: $space, $nodes, $rels
// returns: nodes, relationships
UNWIND range(0, size($nodes) - 1) AS i
WITH i, $nodes[i] AS n
CREATE (x:$(n.labels))
SET x = n.props, x.space = $space
WITH i, n, x
CALL (x, n) {
  WITH x, n WHERE n.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(x, 'embedding', n.embedding)
}
WITH i, x ORDER BY i
WITH collect(x) AS made
CALL (made) {
  UNWIND $rels AS r
  WITH made[r.a] AS a, made[r.b] AS b, r
  CREATE (a)-[e:$(r.type)]->(b)
  SET e = r.props
  RETURN count(e) AS relationships
}
RETURN size(made) AS nodes, relationships
