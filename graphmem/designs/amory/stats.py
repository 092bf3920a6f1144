"""Amory's section of ``graphmem stats``: stories, subplots and side facts of one space."""

from __future__ import annotations

from typing import Any

from graphmem.plugin import GraphStore


def amory_stats(store: GraphStore, space: str) -> dict[str, Any]:
    row = store.read("amory.stats", space=space)[0]
    conversations = int(row["conversations"] or 0)
    narratives, items = int(row["narratives"]), int(row["items"])

    def per_conversation(n: int) -> float:
        return round(n / conversations, 1) if conversations else 0.0

    return {
        "stories": narratives,
        "active_stories": int(row["active"] or 0),
        "subplots": int(row["subplots"]),
        "story_items": items,
        "side_facts": int(row["side_facts"]),
        "characters": int(row["characters"]),
        "stories_per_conversation": per_conversation(narratives),
        "subplots_per_conversation": per_conversation(int(row["subplots"])),
        "side_facts_per_conversation": per_conversation(int(row["side_facts"])),
        "items_per_story": round(items / narratives, 1) if narratives else 0.0,
        "turns_in_stories": round(items / int(row["turns"]), 3) if row["turns"] else 0.0,
    }
