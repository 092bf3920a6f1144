// Every node of a space with its labels and its properties except $skip (the digest).
// Label-less on purpose: the digest must see the labels of every design, present and future.
// params: $space, $skip
// returns: id, labels, props
MATCH (n)
WHERE n.space = $space
RETURN n.id AS id, labels(n) AS labels,
       [k IN keys(n) WHERE NOT k IN $skip | [k, n[k]]] AS props
