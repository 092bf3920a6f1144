// Follow a fact to its turns: facts whose text contains a phrase, their subject and object
// entities, and the turns (with the neighbouring turns) they were extracted from.
// params: $space, $phrase
// returns: fact, subject, object, time, source_id, speaker, turn, before, after
// example: {"phrase": "Porto"}
MATCH (f:Fact {space: $space})
WHERE toLower(f.text) CONTAINS toLower($phrase)
MATCH (f)-[:FROM]->(p:Passage)
OPTIONAL MATCH (f)-[:SUBJECT]->(s:Entity)
OPTIONAL MATCH (f)-[:OBJECT]->(o:Entity)
OPTIONAL MATCH (prev:Passage)-[:NEXT]->(p)
OPTIONAL MATCH (p)-[:NEXT]->(next:Passage)
RETURN f.text AS fact, s.name AS subject, o.name AS object, f.time AS time,
       p.source_id AS source_id, p.speaker AS speaker, p.text AS turn,
       prev.speaker + ' said ' + prev.text AS before, next.speaker + ' said ' + next.text AS after
ORDER BY p.session_index, p.turn_index
