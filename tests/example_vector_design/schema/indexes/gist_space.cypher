// Range index on Gist.space: statements matching the Gist nodes of one space seek here.
// params: none
// returns: none
CREATE INDEX gist_space IF NOT EXISTS FOR (n:Gist) ON (n.space)
