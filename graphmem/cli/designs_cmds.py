"""``graphmem designs [NAME]``: the registered designs, layers and baselines, with their
labels, retrievers, presets and settings."""

from __future__ import annotations

from typing import Any

import click

from graphmem.cli.common import app, emit, handle_errors, json_option
from graphmem.config import Settings
from graphmem.plugin.registry import design, registry


def _render(entries: list[dict[str, Any]], detailed: bool) -> str:
    lines: list[str] = []
    for entry in entries:
        retrievers = ", ".join(entry["retrievers"]) or "-"
        lines.append(f"{entry['name']} ({entry['kind']}): {entry['title']}")
        lines.append(f"  {entry['summary']}")
        lines.append(
            f"  builder: {entry['builder'] or '-'}"
            f"{'  requires: ' + ', '.join(entry['requires']) if entry['requires'] else ''}"
        )
        lines.append(f"  strategies: {retrievers}")
        lines.append(f"  labels: {', '.join(entry['labels']) or '-'}")
        if entry.get("commands"):
            lines.append(f"  commands: {', '.join(entry['commands'])}")
        lines.append(f"  presets: {', '.join(entry['presets'])}  (resolved: {entry['preset']})")
        if entry["docs"]:
            lines.append(f"  docs: {entry['docs']}")
        if detailed:
            for name, preset in entry["presets"].items():
                lines.append(f"  preset {name}: {preset['description']}")
                for key, value in preset["values"].items():
                    source = preset["sources"].get(key)
                    lines.append(f"    {key} = {value}" + (f"  ({source})" if source else ""))
            lines.append("  settings:")
            for setting in entry["settings"]:
                mapped = setting.get("on_embedder")
                scaled = "" if mapped is None else f" (MiniLM's scale; {mapped} under the embedder)"
                lines.append(
                    f"    {setting['name']} = {setting['value']!r}  [{setting['env']}]"
                    f"  {setting['description']}{scaled}"
                )
        lines.append("")
    return "\n".join(lines).rstrip()


@click.command("designs")
@click.argument("name", required=False)
@json_option
@click.pass_context
@handle_errors
def designs(ctx: click.Context, name: str | None, as_json: bool) -> None:
    """List the memory designs, shared layers and baselines: their node labels, strategies,
    presets and settings. With NAME, one design in detail, with each setting's resolved value
    (after preset, config file and environment)."""
    configs = app(ctx).configs()
    configs.check()
    chosen = [design(name)] if name else list(registry().values())
    entries = []
    for found in chosen:
        entry = found.describe()
        entry["preset"] = configs.describe()[found.name]
        resolved = configs.get(found.name)
        for setting in entry["settings"]:
            setting["value"] = getattr(resolved, setting["name"])
        _on_embedder(entry, resolved, app(ctx).settings)
        entries.append(entry)
    emit(entries[0] if name else entries, as_json, lambda d: _render(entries, bool(name)))


def _on_embedder(entry: dict[str, Any], resolved: Any, settings: Settings) -> None:
    """Each cosine threshold's kind, and its value as the configured embedder reads it
    (docs/semantic.md, "Cosine thresholds across embedders"); null for an embedder whose
    scale is measured at first use (openai)."""
    from graphmem.embed.scale import PINNED, configured_name, cosine_fields, map_value

    scale = PINNED.get(configured_name(settings) or "")
    kinds = cosine_fields(type(resolved))
    for setting in entry["settings"]:
        kind = kinds.get(setting["name"])
        if kind is not None:
            setting["cosine"] = kind
            setting["on_embedder"] = map_value(setting["value"], kind, scale) if scale else None
