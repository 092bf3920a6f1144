// Contradiction candidates over time: two facts with the same subject entity and the same
// relation head word but different objects, earlier first (review them; extraction is shallow).
// params: $space
// returns: subject, earlier, earlier_time, earlier_turn, later, later_time, later_turn
MATCH (a:Fact {space: $space})-[:SUBJECT]->(s:Entity)<-[:SUBJECT]-(b:Fact {space: $space})
WHERE a.id < b.id
  AND split(toLower(a.relation), ' ')[0] = split(toLower(b.relation), ' ')[0]
  AND toLower(a.object) <> toLower(b.object)
MATCH (a)-[:FROM]->(pa:Passage)
MATCH (b)-[:FROM]->(pb:Passage)
WITH s, a, b, min(pa.ts) AS ta, min(pb.ts) AS tb,
     min(pa.source_id) AS sa, min(pb.source_id) AS sb
WITH s,
     CASE WHEN ta <= tb THEN [a, ta, sa] ELSE [b, tb, sb] END AS first,
     CASE WHEN ta <= tb THEN [b, tb, sb] ELSE [a, ta, sa] END AS second
WHERE first[2] <> second[2]
RETURN s.name AS subject,
       first[0].text AS earlier, coalesce(first[0].time, toString(first[1])) AS earlier_time,
       first[2] AS earlier_turn,
       second[0].text AS later, coalesce(second[0].time, toString(second[1])) AS later_time,
       second[2] AS later_turn
ORDER BY subject, earlier_turn, later_turn
