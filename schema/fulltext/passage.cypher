// Lucene full-text (BM25) index over Passage (n.text, n.caption).
// params: none
// returns: none
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS FOR (n:Passage) ON EACH [n.text, n.caption]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
