// Drops the Passage(space, session) index (benchmarks: the scale run's with/without
// comparison; `graphmem init` creates it again).
// params: none
// returns: none
DROP INDEX passage_session IF EXISTS
