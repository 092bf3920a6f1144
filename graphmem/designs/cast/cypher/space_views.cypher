// Every view of a space: its centre turn, window and topic vector (retriever snapshot).
// params: $space
// returns: id, centre, passage_ids, embedding
MATCH (v:View {space: $space})
RETURN v.id AS id, v.centre AS centre, v.passage_ids AS passage_ids, v.embedding AS embedding
ORDER BY id
