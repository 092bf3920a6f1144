// Undo a supersession the statements no longer support (a session replaced, a verdict
// changed): the older statement's SUPERSEDES edges, valid_to and `Superseded` label go.
// params: $space, $nodes
// returns: released
UNWIND $nodes AS node
MATCH (older) WHERE elementId(older) = node AND older.space = $space
OPTIONAL MATCH (older)<-[r:SUPERSEDES]-()
DELETE r
REMOVE older.valid_to
REMOVE older:Superseded
RETURN count(DISTINCT older) AS released
