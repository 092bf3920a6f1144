// SEEM event frames with their ordered events, participants and source turns.
// params: $space
// returns: frame, start, event_order, action, time, participants, sources
MATCH (f:EventFrame {space: $space})
OPTIONAL MATCH (f)-[h:HAS_EVENT]->(e:Event)
OPTIONAL MATCH (e)-[:PARTICIPANT]->(who)
WITH f, h, e, collect(DISTINCT coalesce(who.name, who.id)) AS participants
RETURN f.summary AS frame, f.start AS start, h.order AS event_order, e.action AS action,
       e.time AS time, participants,
       [(f)-[:FROM]->(p:Passage) | p.source_id] AS sources
ORDER BY start, frame, event_order
