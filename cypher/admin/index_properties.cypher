// The properties an index covers; no row when it does not exist (init: an index created by
// an older schema is replaced when it lacks a property).
// params: $index
// returns: properties
SHOW INDEXES YIELD name, properties
WHERE name = $index
RETURN properties
