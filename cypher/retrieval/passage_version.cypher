// What the BM25 snapshot of a space's turns was read from: how many turns, their tokens and
// text length. Turns are written once per session (a rerun writes the same values), so a
// different row means turns were added or removed.
// params: $space
// returns: passages, tokens, chars
MATCH (p:Passage {space: $space})
RETURN count(p) AS passages, sum(p.tokens) AS tokens, sum(size(p.text)) AS chars
