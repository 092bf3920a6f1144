// Lucene full-text (BM25) index over AtomicFact (n.text).
// params: none
// returns: none
CREATE FULLTEXT INDEX atomic_fact_text IF NOT EXISTS FOR (n:AtomicFact) ON EACH [n.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
