// Every relationship between two nodes of a space as (start, type, end) (the digest).
// Label-less on purpose: the digest must see the relationships of every design.
// params: $space
// returns: start_labels, start_id, type, end_labels, end_id
MATCH (a)-[r]->(b)
WHERE a.space = $space AND b.space = $space
RETURN labels(a) AS start_labels, a.id AS start_id, type(r) AS type,
       labels(b) AS end_labels, b.id AS end_id
