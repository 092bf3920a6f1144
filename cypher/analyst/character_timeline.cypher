// A character's timeline: what they said and the events they take part in, in time order.
// params: $space, $character
// returns: ts, session_index, turn_index, kind, source_id, text
// example: {"character": "Maya"}
MATCH (c:Character {space: $space})
WHERE toLower(c.name) = toLower($character)
CALL (c) {
  MATCH (c)-[:SPOKE]->(p:Passage)
  RETURN p.ts AS ts, p.session_index AS session_index, p.turn_index AS turn_index,
         'said' AS kind, p.source_id AS source_id, p.text AS text
  UNION
  MATCH (e:Event)-[:PARTICIPANT]->(c)
  MATCH (e)-[:FROM]->(p:Passage)
  RETURN p.ts AS ts, p.session_index AS session_index, p.turn_index AS turn_index,
         'event' AS kind, p.source_id AS source_id,
         e.action + coalesce(' (' + e.time + ')', '') AS text
}
RETURN ts, session_index, turn_index, kind, source_id, text
ORDER BY session_index, turn_index, kind DESC
