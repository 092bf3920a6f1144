// The name of every space, as `graphmem spaces` lists them (what a name that does not
// exist is compared with); a Space node without a name (written by hand) is left out.
// params: none
// returns: space
MATCH (s:Space)
WHERE s.id IS :: STRING
RETURN s.id AS space
ORDER BY space
