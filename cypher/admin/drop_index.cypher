// Drop an index by name, if it exists (init replaces indexes of an older schema).
// params: $index
// returns: none
DROP INDEX $index IF EXISTS
