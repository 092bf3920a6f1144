"""A query result and a subject's history in words, as ``graphmem query`` and ``graphmem
history`` print them and as MCP hands them to the model: one rendering for every surface,
below the CLI, so that MCP imports nothing from ``graphmem.cli``."""

from __future__ import annotations

from typing import Any

from graphmem.retrieval.explain import explain_notes


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and its noun: "1 turn", "2 turns"; ``many`` when the plural is not word + s."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def render_query(data: dict[str, Any], explain: bool) -> str:
    head = (
        f"# {data['strategy']} | {data['tokens']}/{data['budget']} tokens | "
        f"{plural(len(data['items']), 'item')} | {data['latency_ms']} ms"
    )
    lines = [head, data["context"]]
    if explain:
        lines.append("\n# explain")
        lines.extend(f"note: {note}" for note in explain_notes(data.get("notes", [])))
        for item in data["items"]:
            lines.append(f"{_named(item, data['context'])}: {item['explanation']['text']}")
    return "\n".join(lines)


def _named(item: dict[str, Any], context: str) -> str:
    """An item as the context above cites it, so each line can be matched to it: a turn by
    its id there (the turn id where the context names conversations, else the source id), a
    memory by its kind, its turns and its opening words."""
    turn, source = item.get("turn_id"), item.get("source_id")
    if turn or source:
        return str(turn if turn and f"[{turn}]" in context else source or turn)
    short = [t.split("/", 1)[-1] for t in item["turns"]]
    cited = item["turns"] if any(f"[{t}]" in context for t in item["turns"]) else short
    return f'{item["kind"]} [{", ".join(cited)}] "{_opening(item["text"])}"'


def _opening(text: str, words: int = 6) -> str:
    head = text.split()
    return " ".join(head[:words]) + (" ..." if len(head) > words else "")


def _day(value: Any) -> str:
    return "?" if value is None else str(value)


def render_history(rows: list[dict[str, Any]], subject: str) -> str:
    if not rows:
        return f"no change of {subject!r} is recorded (docs/validity.md)"
    lines = []
    for r in rows:
        lines.append(
            f"{_day(r['earlier_from'])} .. {_day(r['until'])}  {r['label']}: {r['earlier']} "
            f"[{', '.join(r['earlier_turns'])}]"
        )
        lines.append(
            f"  -> {_day(r['later_from'])}  {r['later']} [{', '.join(r['later_turns'])}]"
            f"  ({r['verdict']}: {r['reason']})"
        )
    return "\n".join(lines)
