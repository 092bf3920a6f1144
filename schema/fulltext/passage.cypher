// Lucene full-text (BM25) index over Passage text, image caption and speaker (questions
// usually name the speaker), english analyzer; and space, so that a query is filtered to
// its space inside Lucene (retrieval.passages.space_lucene_query) instead of over-fetching
// from every space's matches. The question's terms are searched in text, caption and
// speaker only.
// params: none
// returns: none
CREATE FULLTEXT INDEX passage_search IF NOT EXISTS FOR (n:Passage) ON EACH [n.text, n.caption, n.speaker, n.space]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
