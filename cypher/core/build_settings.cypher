// The builder settings recorded for a space: JSON text, builder -> {setting: value}.
// params: $space
// returns: settings
OPTIONAL MATCH (sp:Space {space: $space, id: $space})
RETURN sp.build_settings AS settings
