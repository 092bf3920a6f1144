// CAST's figures for `graphmem stats`: views, scenes, roles and profiles of one space.
// params: $space
// returns: views, scenes, scene_views, located_views, profiles, mentioned_characters, main_roles, supporting_roles
CALL {
  MATCH (v:View {space: $space})
  RETURN count(v) AS views, count(v.location) AS located_views
}
CALL {
  MATCH (s:Scene {space: $space})
  RETURN count(s) AS scenes, coalesce(sum(s.views), 0) AS scene_views
}
CALL {
  MATCH (c:Character {space: $space})-[r:IN_SCENE]->(:Scene)
  RETURN count(DISTINCT c) AS profiles,
         count(DISTINCT CASE WHEN NOT c:Speaker THEN c END) AS mentioned_characters,
         count(CASE r.role WHEN 'MC' THEN 1 END) AS main_roles,
         count(CASE r.role WHEN 'SC' THEN 1 END) AS supporting_roles
}
RETURN views, scenes, scene_views, located_views, profiles, mentioned_characters,
       main_roles, supporting_roles
