"""A character profile (paper 3.1): the scenes of the character's stream ordered by start
time, each with the character's role, dates and summary."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from graphmem.plugin import GraphStore, InputError, check_exists, plural


class ProfileScene(BaseModel):
    order: int
    role: str
    scene_id: str
    date_text: str | None
    start: str | None
    end: str | None
    location: str | None
    participants: list[str]
    main: list[str]
    supporting: list[str]
    views: int
    summary: str


class Profile(BaseModel):
    space: str
    character: str
    scenes: list[ProfileScene]

    def render(self) -> str:
        lines = [f"{self.character}: {plural(len(self.scenes), 'scene')}"]
        for s in self.scenes:
            where = f" at {s.location}" if s.location else ""
            others = ", ".join(p for p in s.participants if p != self.character)
            lines.append(
                f"{s.order + 1:>3}. [{s.role}] {s.date_text or s.start or 'date unknown'}{where}"
                f" ({s.views} views; with {others or 'nobody'})"
            )
            lines.append(f"     {s.summary}")
        return "\n".join(lines)


def character_profile(store: GraphStore, space: str, name: str) -> Profile:
    """The profile of the character called ``name`` (case-insensitive) in ``space``."""
    rows = store.read("cast.profile", space=space, character=name)
    if not rows:
        check_exists(store, space)  # a misspelt space, not a character it lacks
        known = [r["name"] for r in store.read("cast.characters", space=space) if r["scenes"]]
        raise InputError(
            f"no character {name!r} with scenes in space {space!r}",
            hint=f"characters with profiles: {', '.join(known[:20]) or 'none (build cast)'}",
        )
    return Profile(
        space=space,
        character=rows[0]["character"],
        scenes=[ProfileScene(**_scene(row)) for row in rows],
    )


def _scene(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "order": int(row["order"] or 0),
        "role": row["role"],
        "scene_id": row["scene_id"],
        "date_text": row["date_text"],
        "start": str(row["start"]) if row["start"] is not None else None,
        "end": str(row["end"]) if row["end"] is not None else None,
        "location": row["location"],
        "participants": list(row["participants"] or []),
        "main": list(row["main"] or []),
        "supporting": list(row["supporting"] or []),
        "views": int(row["views"] or 0),
        "summary": row["summary"] or "",
    }
