// SEEM's figures for `graphmem stats`: semantic layer and episodic frames of one space.
// params: $space
// returns: entities, facts, temporal_anchors, synonym_edges, frames, events, frame_sources, passages_with_frames
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
  MATCH (f:EventFrame {space: $space})
  RETURN count(f) AS frames
}
CALL {
  MATCH (e:Event {space: $space})
  RETURN count(e) AS events
}
CALL {
  MATCH (:EventFrame {space: $space})-[r:FROM]->(p:Passage)
  RETURN count(r) AS frame_sources, count(DISTINCT p) AS passages_with_frames
}
RETURN entities, facts, temporal_anchors, synonym_edges, frames, events, frame_sources,
       passages_with_frames
