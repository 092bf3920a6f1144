// What the retriever's snapshot was read from: PREMem's items and the turns of one space,
// and the last write among them. A different row means the snapshot is stale.
// params: $space
// returns: fragments, insights, passages, updated
CALL {
  MATCH (f:Fragment {space: $space})
  RETURN count(f) AS fragments, max(f.created_at) AS fragment_at
}
CALL {
  MATCH (i:Insight {space: $space})
  RETURN count(i) AS insights, max(i.created_at) AS insight_at
}
CALL {
  MATCH (p:Passage {space: $space})
  RETURN count(p) AS passages
}
RETURN fragments, insights, passages,
       toString(CASE WHEN insight_at > fragment_at THEN insight_at ELSE fragment_at END)
         AS updated
