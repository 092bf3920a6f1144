// Which of these entity ids already exist in the space.
// params: $space, $ids
// returns: id
UNWIND $ids AS key
MATCH (e:Entity {space: $space, id: key})
RETURN e.id AS id
