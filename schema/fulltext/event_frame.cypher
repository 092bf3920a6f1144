// Lucene full-text (BM25) index over EventFrame (n.summary).
// params: none
// returns: none
CREATE FULLTEXT INDEX event_frame_text IF NOT EXISTS FOR (n:EventFrame) ON EACH [n.summary]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}
