// Per derived label of a space: how many nodes, how many lack FROM to a passage of the
// space, how many cite a passage of another space (the design contract and audits).
// params: $space, $labels
// returns: label, nodes, without_from, foreign
UNWIND $labels AS label
MATCH (n {space: $space})
WHERE label IN labels(n)
WITH label, n,
     EXISTS { (n)-[:FROM]->(p:Passage) WHERE p.space = $space } AS cited,
     EXISTS { (n)-[:FROM]->(p:Passage) WHERE p.space <> $space } AS foreign
RETURN label, count(n) AS nodes,
       sum(CASE WHEN cited THEN 0 ELSE 1 END) AS without_from,
       sum(CASE WHEN foreign THEN 1 ELSE 0 END) AS foreign
