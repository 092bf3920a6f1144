// Range index on (Passage.space, Passage.session): rewriting a session (release, prune) and
// reading a session's turns find its passages without reading the rest of the space.
// params: none
// returns: none
CREATE INDEX passage_session IF NOT EXISTS FOR (n:Passage) ON (n.space, n.session)
