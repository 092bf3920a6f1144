// Contradiction candidates over time: two facts with the same subject entity and the same
// relation head (its first word, or its first two after a form of "be": "is in" and "is
// in" pair, "is about" and "is lucky" do not) but different objects, earlier first in
// conversation order (review them; extraction is shallow).
// params: $space
// returns: subject, earlier, earlier_time, earlier_turn, later, later_time, later_turn
MATCH (a:Fact {space: $space})-[:SUBJECT]->(s:Entity)<-[:SUBJECT]-(b:Fact {space: $space})
WHERE a.id < b.id AND toLower(a.object) <> toLower(b.object)
WITH s, a, b, split(toLower(a.relation), ' ') AS wa, split(toLower(b.relation), ' ') AS wb
WITH s, a, b,
     CASE WHEN wa[0] IN ['is', 'am', 'are', 'was', 'were', 'be', 'been']
          THEN wa[0] + ' ' + coalesce(wa[1], '') ELSE wa[0] END AS ha,
     CASE WHEN wb[0] IN ['is', 'am', 'are', 'was', 'were', 'be', 'been']
          THEN wb[0] + ' ' + coalesce(wb[1], '') ELSE wb[0] END AS hb
WHERE ha = hb
MATCH (a)-[:FROM]->(pa:Passage)
MATCH (b)-[:FROM]->(pb:Passage)
WITH s, a, b, min([pa.session_index, pa.turn_index, pa.source_id, pa.ts]) AS ea,
     min([pb.session_index, pb.turn_index, pb.source_id, pb.ts]) AS eb
WITH s,
     CASE WHEN ea <= eb THEN [a, ea] ELSE [b, eb] END AS first,
     CASE WHEN ea <= eb THEN [b, eb] ELSE [a, ea] END AS second
WHERE first[1][2] <> second[1][2]
RETURN s.name AS subject,
       first[0].text AS earlier, coalesce(first[0].time, toString(first[1][3])) AS earlier_time,
       first[1][2] AS earlier_turn,
       second[0].text AS later, coalesce(second[0].time, toString(second[1][3])) AS later_time,
       second[1][2] AS later_turn
ORDER BY subject, first[1][0], first[1][1], second[1][0], second[1][1]
