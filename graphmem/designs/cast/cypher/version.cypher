// What the retriever's snapshot was read from: scenes and views of the space, last write.
// params: $space
// returns: scenes, views, updated
CALL {
  MATCH (s:Scene {space: $space})
  RETURN count(s) AS scenes, max(s.updated_at) AS updated
}
CALL {
  MATCH (v:View {space: $space})
  RETURN count(v) AS views
}
RETURN scenes, views, toString(updated) AS updated
