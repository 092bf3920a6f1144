// Entities, facts and frames in the whole database and in one space: the over-fetch factor
// for the global vector indexes (they span every space).
// params: $space
// returns: entities, entities_in_space, facts, facts_in_space, frames, frames_in_space
CALL {
  MATCH (e:Entity)
  RETURN count(e) AS entities
}
CALL {
  MATCH (e:Entity {space: $space})
  RETURN count(e) AS entities_in_space
}
CALL {
  MATCH (f:Fact)
  RETURN count(f) AS facts
}
CALL {
  MATCH (f:Fact {space: $space})
  RETURN count(f) AS facts_in_space
}
CALL {
  MATCH (f:EventFrame)
  RETURN count(f) AS frames
}
CALL {
  MATCH (f:EventFrame {space: $space})
  RETURN count(f) AS frames_in_space
}
RETURN entities, entities_in_space, facts, facts_in_space, frames, frames_in_space
