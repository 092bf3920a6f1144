// A newer statement supersedes an older one of the same label: (newer)-[:SUPERSEDES]->(older),
// the older's valid_to and its `Superseded` label (the Browser draws it faded). Both keep
// their FROM turns; nothing is deleted.
// params: $space, $rows
// returns: written
UNWIND $rows AS row
MATCH (newer) WHERE elementId(newer) = row.newer AND newer.space = $space
MATCH (older) WHERE elementId(older) = row.older AND older.space = $space
MERGE (newer)-[r:SUPERSEDES]->(older)
SET r.verdict = row.verdict, r.reason = row.reason, r.backend = row.backend,
    older.valid_to = date(row.until)
SET older:Superseded
RETURN count(r) AS written
