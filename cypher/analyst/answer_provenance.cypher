// Provenance audit of an answer: for each turn it cites (the `citations` of
// `graphmem query --json`: turn ids, <conversation>/<source id>; a bare source id names
// that turn in every conversation of the space), the turn and every memory built from it.
// params: $space, $source_ids
// returns: source_id, speaker, turn, label, builder, memory
// example: {"source_ids": ["maya-and-tom/s1:1", "maya-and-tom/s3:1"]}
UNWIND $source_ids AS sid
MATCH (p:Passage {space: $space})
WHERE p.source_id = sid OR p.conversation + '/' + p.source_id = sid
OPTIONAL MATCH (p)<-[:FROM]-(d)
WITH p, d, [l IN labels(d) | l][0] AS label
RETURN p.source_id AS source_id, p.speaker AS speaker, p.text AS turn, label,
       d.builder AS builder,
       // A node with no text of its own (a PREMem Cluster) is named by its label and id,
       // so that two of them stay two when drawn.
       CASE WHEN d IS NULL THEN ''
            ELSE coalesce(d.text, d.summary, d.action, d.headline, d.value, d.key, d.name,
                          label + ' ' + d.id) END AS memory
ORDER BY p.conversation, p.session_index, p.turn_index, label
