// Current facts of a subject: the timed statements about it (whose state they are, or a
// thing they name) that no later statement superseded, newest first, with their turns. A
// question or a request states nothing (its claim's "question" cue): never listed.
// params: $space, $subject
// returns: label, statement, valid_from, source_id, speaker
// example: {"subject": "Tom"}
// requires: Fact, Fragment, AtomicFact
CALL () {
  MATCH (n:Fragment {space: $space}) RETURN n, 'Fragment' AS label, n.value AS statement
  UNION ALL
  MATCH (n:AtomicFact {space: $space}) RETURN n, 'AtomicFact' AS label, n.text AS statement
  UNION ALL
  MATCH (n:Fact {space: $space}) RETURN n, 'Fact' AS label, n.text AS statement
}
WITH n, label, statement
WHERE NOT n:Superseded AND n.valid_from IS NOT NULL
  AND NOT 'question' IN coalesce(n.claim_cues, [])
  AND (n.claim_subject = toLower($subject) OR toLower($subject) IN n.claim_topics)
MATCH (n)-[:FROM]->(p:Passage)
RETURN label, statement, toString(n.valid_from) AS valid_from, p.source_id AS source_id,
       p.speaker AS speaker
ORDER BY valid_from DESC, p.session_index DESC, p.turn_index DESC, label
