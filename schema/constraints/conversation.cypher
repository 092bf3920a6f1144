// Uniqueness of (Conversation) per space: ids are content hashes within a space.
// params: none
// returns: none
CREATE CONSTRAINT conversation_key IF NOT EXISTS FOR (n:Conversation) REQUIRE (n.space, n.id) IS UNIQUE
