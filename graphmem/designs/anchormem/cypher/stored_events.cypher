// Which of the given event ids are already stored (a re-run keeps them as they are).
// params: $space, $ids
// returns: id
UNWIND $ids AS eid
MATCH (e:AssocEvent {space: $space, id: eid})
RETURN e.id AS id
