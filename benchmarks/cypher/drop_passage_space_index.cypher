// Drops the Passage(space) index (benchmarks: the scale run's with/without comparison;
// `graphmem init` creates it again).
// params: none
// returns: none
DROP INDEX passage_space IF EXISTS
