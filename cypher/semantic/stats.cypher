// The semantic layer's figures for `graphmem stats` (SEEM's Table 10 and the links).
// params: $space
// returns: entities, facts, temporal_anchors, synonym_edges, mentions, speakers_linked
CALL {
  MATCH (e:Entity {space: $space})
  RETURN count(e) AS entities
}
CALL {
  MATCH (f:Fact {space: $space})
  RETURN count(f) AS facts, count(f.time) AS temporal_anchors
}
CALL {
  MATCH (:Entity {space: $space})-[r:SYNONYM]->(:Entity)
  RETURN count(r) AS synonym_edges
}
CALL {
  MATCH (:Passage {space: $space})-[r:MENTIONS]->(:Entity)
  RETURN count(r) AS mentions
}
CALL {
  MATCH (c:Speaker {space: $space})-[:IS]->(:Entity)
  RETURN count(c) AS speakers_linked
}
RETURN entities, facts, temporal_anchors, synonym_edges, mentions, speakers_linked
