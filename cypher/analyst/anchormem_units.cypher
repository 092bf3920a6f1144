// AnchorMem fact-context units: each atomic fact, the facts it is similar to, and its turns.
// params: $space
// returns: fact, similar, integrated_by, sources
MATCH (a:AtomicFact {space: $space})
RETURN a.text AS fact,
       [(a)-[:SIMILAR]-(b:AtomicFact) | b.text] AS similar,
       [(e:AssocEvent)-[:INTEGRATES]->(a) | e.text] AS integrated_by,
       [(a)-[:FROM]->(p:Passage) | p.source_id] AS sources
ORDER BY a.session_index, a.turn_index, fact
