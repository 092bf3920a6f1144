// Lucene full-text (BM25) index over Fact (n.text).
// params: none
// returns: none
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS FOR (n:Fact) ON EACH [n.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
