// Uniqueness of (Cluster) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT cluster_key IF NOT EXISTS FOR (n:Cluster) REQUIRE (n.space, n.id) IS UNIQUE
