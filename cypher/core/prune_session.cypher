// A session whose content changed: drop the passages that are no longer in it.
// params: $space, $session_id, $keep
// returns: pruned
MATCH (p:Passage {space: $space, session: $session_id})
WHERE NOT p.id IN $keep
DETACH DELETE p
RETURN count(*) AS pruned
