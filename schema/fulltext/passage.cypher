// Lucene full-text (BM25) index over Passage text, image caption and speaker (questions
// usually name the speaker), english analyzer.
// params: none
// returns: none
CREATE FULLTEXT INDEX passage_search IF NOT EXISTS FOR (n:Passage) ON EACH [n.text, n.caption, n.speaker]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
