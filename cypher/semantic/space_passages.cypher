// Every passage of one space with its projection node id and embedding: a retriever keeps
// this snapshot for as long as the space's projection it was read with exists.
// params: $space
// returns: node_id, embedding, passage
MATCH (p:Passage {space: $space})
RETURN id(p) AS node_id, p.embedding AS embedding, p {@passage} AS passage
ORDER BY node_id
