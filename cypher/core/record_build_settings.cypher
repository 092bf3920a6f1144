// Record the builder settings of a space (see graphmem/builders/recorded.py).
// params: $space, $settings
// returns: recorded
MATCH (sp:Space {space: $space, id: $space})
SET sp.build_settings = $settings
RETURN count(sp) AS recorded
