// SEEM's figures for `graphmem stats`: the episodic frames of one space (the semantic layer
// has its own, semantic.stats).
// params: $space
// returns: frames, events, frame_sources, passages_with_frames
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
RETURN frames, events, frame_sources, passages_with_frames
