// What the retriever's snapshot was read from: AnchorMem's facts and events of one space,
// their source links (a stored fact gains sources when a later session restates it) and
// the last one created. A different row means the snapshot is stale.
// params: $space
// returns: facts, events, links, updated
CALL {
  MATCH (f:AtomicFact {space: $space})
  RETURN count(f) AS facts, max(f.created_at) AS fact_at,
         sum(COUNT { (f)-[:FROM]->() }) AS fact_links
}
CALL {
  MATCH (e:AssocEvent {space: $space})
  RETURN count(e) AS events, max(e.created_at) AS event_at,
         sum(COUNT { (e)-[:FROM]->() }) AS event_links
}
RETURN facts, events, fact_links + event_links AS links,
       toString(CASE WHEN event_at > fact_at THEN event_at ELSE fact_at END) AS updated
