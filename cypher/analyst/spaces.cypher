// Every space in the database with its conversations, sessions and turns.
// params: none
// returns: space, conversations, sessions, turns, created_at
MATCH (s:Space)
RETURN s.id AS space,
       COUNT { MATCH (c:Conversation {space: s.id}) RETURN c } AS conversations,
       COUNT { MATCH (x:Session {space: s.id}) RETURN x } AS sessions,
       COUNT { MATCH (p:Passage {space: s.id}) RETURN p } AS turns,
       s.created_at AS created_at
ORDER BY space
