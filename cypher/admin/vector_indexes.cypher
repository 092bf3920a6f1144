// Vector indexes with their state and dimension.
// params: none
// returns: name, state, labels, dim
SHOW VECTOR INDEXES YIELD name, state, labelsOrTypes, options
RETURN name, state, labelsOrTypes AS labels, options.indexConfig.`vector.dimensions` AS dim
