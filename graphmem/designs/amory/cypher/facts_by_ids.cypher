// Facts of one space by id (what a generated semantic query returned), with their source
// turns: ids of another space or of no fact are dropped here.
// params: $space, $ids
// returns: id, text, passage_ids
UNWIND $ids AS fid
MATCH (f:Fact {space: $space, id: fid})
RETURN f.id AS id, f.text AS text,
       COLLECT { MATCH (f)-[:FROM]->(p:Passage) RETURN p.id } AS passage_ids
