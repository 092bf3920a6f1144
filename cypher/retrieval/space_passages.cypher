// Every turn of one space, for the in-process BM25 (graphmem.retrieval.bm25), in id order.
// params: $space
// returns: passage
MATCH (p:Passage {space: $space})
RETURN p {@passage} AS passage
ORDER BY p.id
