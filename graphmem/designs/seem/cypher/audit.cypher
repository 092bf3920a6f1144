// Consistency of a space's SEEM layers (tests, diagnostics): the *_missing and *_orphaned
// counts must be 0; every passage is in exactly one frame.
// params: $space
// returns: facts_incomplete, frames_unsourced, passages_unframed, passages_multiframed, events_orphaned, untagged, min_synonym_score, speakers_linked, mentions
CALL {
  // An end that names no thing has no entity (docs/semantic.md, "Things"); a fact with
  // neither end an entity, or no source turn, is incomplete.
  MATCH (f:Fact {space: $space})
  WHERE NOT (f)-[:SUBJECT|OBJECT]->(:Entity) OR NOT (f)-[:FROM]->(:Passage)
  RETURN count(f) AS facts_incomplete
}
CALL {
  MATCH (f:EventFrame {space: $space})
  WHERE NOT (f)-[:FROM]->(:Passage)
  RETURN count(f) AS frames_unsourced
}
CALL {
  MATCH (p:Passage {space: $space})
  WITH COUNT { (p)<-[:FROM]-(:EventFrame) } AS n
  RETURN sum(CASE WHEN n = 0 THEN 1 ELSE 0 END) AS passages_unframed,
         sum(CASE WHEN n > 1 THEN 1 ELSE 0 END) AS passages_multiframed
}
CALL {
  MATCH (e:Event {space: $space})
  WHERE NOT (e)<-[:HAS_EVENT]-(:EventFrame) OR NOT (e)-[:FROM]->(:Passage)
  RETURN count(e) AS events_orphaned
}
CALL {
  CALL {
    MATCH (n:Entity {space: $space}) WHERE n.builder IS NULL OR n.backend IS NULL
    RETURN count(n) AS c
    UNION ALL
    MATCH (n:Fact {space: $space}) WHERE n.builder IS NULL OR n.backend IS NULL
    RETURN count(n) AS c
    UNION ALL
    MATCH (n:EventFrame {space: $space}) WHERE n.builder IS NULL OR n.backend IS NULL
    RETURN count(n) AS c
    UNION ALL
    MATCH (n:Event {space: $space}) WHERE n.builder IS NULL OR n.backend IS NULL
    RETURN count(n) AS c
  }
  RETURN sum(c) AS untagged
}
CALL {
  MATCH (:Entity {space: $space})-[r:SYNONYM]->(:Entity)
  RETURN min(r.score) AS min_synonym_score
}
CALL {
  MATCH (c:Speaker {space: $space})-[:IS]->(:Entity)
  RETURN count(c) AS speakers_linked
}
CALL {
  MATCH (:Passage {space: $space})-[r:MENTIONS]->(:Entity)
  RETURN count(r) AS mentions
}
RETURN facts_incomplete, frames_unsourced, passages_unframed, passages_multiframed,
       events_orphaned, untagged, min_synonym_score, speakers_linked, mentions
