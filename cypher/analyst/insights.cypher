// PREMem: insights (patterns reasoned over clusters of fragments) with their source turns.
// params: $space
// returns: pattern, insight, date, clusters, fragments, sources
// requires: Insight
MATCH (i:Insight {space: $space})
OPTIONAL MATCH (i)-[:REASONS_OVER]->(c:Cluster)
OPTIONAL MATCH (c)-[:GROUPS]->(f:Fragment)
WITH i, count(DISTINCT c) AS clusters, collect(DISTINCT coalesce(f.key + ' = ' + f.value, f.text)) AS fragments
RETURN i.pattern AS pattern, coalesce(i.key + ' = ' + i.value, i.text) AS insight,
       i.date AS date, clusters, fragments,
       [(i)-[:FROM]->(p:Passage) | p.source_id] AS sources
ORDER BY date, pattern
