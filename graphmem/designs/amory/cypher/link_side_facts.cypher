// Which story semanticised which fact: a fact the shared layer already holds (written by
// another builder first) is still Amory's side fact of that story.
// params: $space, $rows
// returns: linked
UNWIND $rows AS row
MATCH (n:Narrative {space: $space, id: row.story_id})
MATCH (f:Fact {space: $space, id: row.fact_id})
MERGE (n)-[:SEMANTICIZED]->(f)
RETURN count(*) AS linked
