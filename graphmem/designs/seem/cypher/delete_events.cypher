// A frame's events are rewritten whole when it is (re)written: drop the old ones first.
// params: $space, $frame_ids
// returns: deleted
UNWIND $frame_ids AS fid
MATCH (:EventFrame {space: $space, id: fid})-[:HAS_EVENT]->(e:Event)
DETACH DELETE e
RETURN count(*) AS deleted
