// Every space with its pinned embedder (null: unpinned), the re-embedding under way (if
// any) and its number of passages.
// params: none
// returns: space, embedder, reembed_to, passages
MATCH (sp:Space)
RETURN sp.space AS space, sp.embedder AS embedder, sp.reembed_to AS reembed_to,
       COUNT { MATCH (p:Passage {space: sp.space}) } AS passages
ORDER BY space
