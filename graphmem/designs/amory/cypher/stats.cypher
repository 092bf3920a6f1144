// Amory's figures for one space: stories, subplots, items, side facts, characters.
// params: $space
// returns: conversations, narratives, active, subplots, items, side_facts, characters, turns
CALL {
  MATCH (n:Narrative {space: $space})
  RETURN count(DISTINCT n.conversation) AS conversations, count(n) AS narratives,
         sum(CASE n.status WHEN 'active' THEN 1 ELSE 0 END) AS active
}
CALL { MATCH (s:Subplot {space: $space}) RETURN count(s) AS subplots }
CALL { MATCH (i:StoryItem {space: $space}) RETURN count(i) AS items }
CALL {
  MATCH (:Narrative {space: $space})-[:SEMANTICIZED]->(f:Fact {space: $space})
  RETURN count(DISTINCT f) AS side_facts
}
CALL {
  MATCH (:Narrative {space: $space})-[:ABOUT]->(c:Character {space: $space})
  RETURN count(DISTINCT c) AS characters
}
CALL { MATCH (p:Passage {space: $space}) RETURN count(p) AS turns }
RETURN conversations, narratives, active, subplots, items, side_facts, characters, turns
