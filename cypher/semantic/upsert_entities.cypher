// Entity (phrase) nodes of the semantic layer, with their embedding. Each row carries its
// node's backend and fallback flag. A new entity is `synonyms_pending` until
// semantic.link_synonyms has run its synonym pass (a rerun after a crash in between does it).
// params: $space, $rows, $builder
// returns: written
UNWIND $rows AS row
MERGE (e:Entity {space: $space, id: row.id})
  ON CREATE SET e.key = row.key, e.name = row.name, e.aliases = [], e.builder = $builder,
                e.backend = row.backend, e.fallback = row.fallback, e.created_at = datetime(),
                e.synonyms_pending = true
WITH e, row
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
RETURN count(e) AS written
