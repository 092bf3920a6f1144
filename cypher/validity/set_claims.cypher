// Valid time, first part: each statement's claim (graphmem.validity.claim_reader), when it became
// true, and when graphmem stored it (kept from the first write); $version: the reading's
// (graphmem.validity.types.CLAIM_VERSION), a claim of another is read again. Nodes are found by the
// element id the read (core.validity_statements) returned, checked against space and id.
// params: $space, $rows, $version
// returns: written
UNWIND $rows AS row
MATCH (n) WHERE elementId(n) = row.node AND n.space = $space AND n.id = row.id
SET n.valid_from = date(row.valid_from),
    n.recorded_at = coalesce(n.recorded_at, n.created_at, datetime()),
    n.claim_subject = row.subject, n.claim_predicate = row.predicate, n.claim_object = row.object,
    n.claim_topics = row.topics, n.claim_values = row.values, n.claim_measures = row.measures,
    n.claim_clause_measures = row.clause_measures, n.claim_cues = row.cues,
    n.claim_version = $version
RETURN count(n) AS written
