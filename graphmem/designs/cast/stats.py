"""CAST's section of ``graphmem stats``: views, scenes, roles and character profiles."""

from __future__ import annotations

from typing import Any

from graphmem.plugin import GraphStore


def cast_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("cast.stats", space=space)[0]
    scenes = int(row["scenes"])
    return {
        "views": int(row["views"]),
        "views_with_place": int(row["located_views"]),
        "scenes": scenes,
        "views_per_scene": round(int(row["scene_views"]) / scenes, 2) if scenes else None,
        "profiles": int(row["profiles"]),
        "mentioned_characters": int(row["mentioned_characters"]),
        "main_roles": int(row["main_roles"]),
        "supporting_roles": int(row["supporting_roles"]),
    }
