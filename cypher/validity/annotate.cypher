// Valid time of what a query found: for each of the given turns, the superseded statements
// that come from it and the turns of the statement that superseded each (earliest first).
// $as_of (a datetime or null): a supersession told after it does not count.
// params: $space, $passage_ids, $as_of
// returns: passage_id, old_id, old_label, valid_to, new_id, newer
UNWIND $passage_ids AS pid
MATCH (src:Passage {space: $space, id: pid})<-[:FROM]-(old:Superseded)<-[:SUPERSEDES]-(new)
MATCH (new)-[:FROM]->(np:Passage)
WITH pid, old, new, np ORDER BY np.session_index, np.turn_index
WITH pid, old, new, collect(np) AS turns
WHERE $as_of IS NULL OR turns[0].ts <= localdatetime($as_of)
RETURN pid AS passage_id, old.id AS old_id,
       [label IN labels(old) WHERE label <> 'Superseded'][0] AS old_label,
       old.valid_to AS valid_to, new.id AS new_id, [p IN turns | p {@passage}] AS newer
