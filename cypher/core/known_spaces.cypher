// The name of every space, as `graphmem spaces` lists them (what a name that does not
// exist is compared with).
// params: none
// returns: space
MATCH (s:Space)
RETURN s.id AS space
ORDER BY space
