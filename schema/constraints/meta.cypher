// One Meta node per key (schema version, embedder, dimension).
// params: none
// returns: none
CREATE CONSTRAINT meta_key IF NOT EXISTS FOR (n:GraphmemMeta) REQUIRE n.key IS UNIQUE
