// Block until every index is online (new indexes populate in the background).
// params: $timeout_s
// returns: none
CALL db.awaitIndexes($timeout_s)
