// The builder settings recorded for a space (JSON text, builder -> {setting: value}) and the
// builders that completed any of its sessions: what a build must agree with, in one read.
// params: $space
// returns: settings, builders
OPTIONAL MATCH (sp:Space {space: $space, id: $space})
RETURN sp.build_settings AS settings,
       COLLECT {
         MATCH (s:Session {space: $space})
         UNWIND coalesce(s.built_by, []) AS builder
         RETURN DISTINCT builder
       } AS builders
