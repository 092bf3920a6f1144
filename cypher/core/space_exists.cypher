// Whether a space exists: its Space node (made by its first write), or the sessions of a
// space written before spaces had one. Two index seeks: no scan of the database.
// params: $space
// returns: exists
RETURN EXISTS { MATCH (:Space {space: $space}) }
       OR EXISTS { MATCH (:Session {space: $space}) } AS exists
