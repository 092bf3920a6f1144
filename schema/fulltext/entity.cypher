// Lucene full-text (BM25) index over Entity (n.name).
// params: none
// returns: none
CREATE FULLTEXT INDEX entity_text IF NOT EXISTS FOR (n:Entity) ON EACH [n.name]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
