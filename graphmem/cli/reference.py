"""The CLI reference (``docs/cli.md``) and the configuration tables
(``docs/configuration.md``), rendered from the click commands and from the settings' field
descriptions::

    python -m graphmem.cli.reference          # writes both pages
    python -m graphmem.cli.reference --check  # exits 1 when a committed page is stale

Nothing imports this module but its test and ``-m``: walking the commands imports every
command module, and the design settings come from the design registry. The output depends
on the code alone: defaults computed at run time (paths under the home directory) are
described, not printed, and commands that installed plug-ins add are left out.
"""

from __future__ import annotations

import inspect
import json
import os
import re
import sys
import typing
from collections.abc import Callable, Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import click

REGENERATE = "python -m graphmem.cli.reference"
ROOT = Path(__file__).resolve().parents[2]
_WIDE = {"terminal_width": 1000, "max_content_width": 1000}


def _generated(source: str) -> str:
    return (
        f"Generated from {source} by `graphmem/cli/reference.py`; do not edit by hand. "
        f"Regenerate with `{REGENERATE}`."
    )


def _text(text: str) -> str:
    """Markdown-safe prose: code spans kept, emphasis and HTML characters escaped."""
    parts = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(parts), 2):
        escaped = re.sub(r"([\\*~])", r"\\\1", parts[i]).replace("<", "&lt;")
        # An underscore inside a word (GRAPHMEM_HOME) never starts emphasis.
        parts[i] = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", escaped)
    return "".join(parts)


def _cell(text: str) -> str:
    return _text(" ".join(text.split())).replace("|", "\\|")


def _code(text: str) -> str:
    return f"`{text}`".replace("|", "\\|")


def _table(head: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return [*lines, ""]


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.lower()).replace(" ", "-")


# --- the CLI ---------------------------------------------------------------------------


def _own(command: click.Command) -> bool:
    """graphmem's own commands (and its designs'), not an installed plug-in's."""
    where = command.callback or type(command)
    return str(getattr(where, "__module__", "")).startswith("graphmem.")


def _walk(command: click.Command, ctx: click.Context) -> Iterator[click.Context]:
    yield ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is None or sub.hidden or not _own(sub):
                continue
            settings = {**sub.context_settings, **_WIDE}
            yield from _walk(sub, click.Context(sub, info_name=name, parent=ctx, **settings))


def _contexts() -> list[click.Context]:
    from graphmem.cli.main import cli

    root = click.Context(cli, info_name="graphmem", **{**cli.context_settings, **_WIDE})
    return list(_walk(cli, root))


def _help_blocks(text: str) -> list[str]:
    """click's help text as Markdown: a paragraph marked ``\\b`` keeps its lines (a code
    block); the others are joined into one line each."""
    out: list[str] = []
    for para in re.split(r"\n\s*\n", inspect.cleandoc(text).partition("\f")[0].strip()):
        lines = para.splitlines()
        if lines and lines[0].strip() == "\b":
            out.extend(["```text", *(line.rstrip() for line in lines[1:]), "```", ""])
        else:
            out.extend([_text(" ".join(para.split())), ""])
    return out


def _unset(value: Any) -> bool:
    return value is None or type(value).__name__ == "Sentinel"  # click >= 8.2: UNSET


def _param_type(param: click.Parameter) -> str:
    kind = param.type
    if isinstance(param, click.Option) and param.count:
        said = "count"
    elif isinstance(param, click.Option) and param.is_flag:
        said = "flag"
    elif isinstance(kind, click.Choice):
        said = "one of " + ", ".join(_code(str(c)) for c in kind.choices)
    elif isinstance(kind, click.DateTime):
        said = "date, as " + " or ".join(_code(f) for f in kind.formats)
    else:
        said = kind.name.replace(" range", "")
    if isinstance(kind, click.types._NumberRangeBase):
        said += f", {_code(kind._describe_range())}"
    if param.multiple or param.nargs == -1:
        said += ", repeatable"
    return said


def _param_row(param: click.Parameter, ctx: click.Context) -> list[str]:
    if isinstance(param, click.Option):
        names = [", ".join(_code(o) for o in param.opts)]
        names.extend(_code(o) for o in param.secondary_opts)
        extra = param.get_help_extra(ctx)
        raw = param.get_default(ctx, call=False)
        if callable(raw):
            default = "computed when it runs"
        else:
            default = _code(extra["default"]) if "default" in extra else ""
        if param.required:
            default = "required"
        said = _cell(param.help or "")
        if param.envvar:
            variables = [param.envvar] if isinstance(param.envvar, str) else param.envvar
            said += f" Environment: {', '.join(_code(v) for v in variables)}."
        return [" / ".join(names), _param_type(param), default, said.strip()]
    raw = param.get_default(ctx, call=False)
    default = "required" if param.required else "optional"
    if not _unset(raw) and not callable(raw):
        default = _code(str(raw))
    return [_code(param.human_readable_name), _param_type(param), default, "(argument)"]


def _command_section(ctx: click.Context, below: list[click.Context]) -> list[str]:
    command = ctx.command
    path = ctx.command_path
    usage = " ".join([path, *command.collect_usage_pieces(ctx)])
    out = [f"## {path}", "", "```text", usage, "```", ""]
    out.extend(_help_blocks(command.help or command.short_help or ""))
    help_option = command.get_help_option(ctx)
    params = [
        p
        for p in command.get_params(ctx)
        if p is not help_option and not (isinstance(p, click.Option) and p.hidden)
    ]
    if params:
        rows = [_param_row(p, ctx) for p in params]
        out.extend(_table(["Option or argument", "Type", "Default", "Description"], rows))
    if below:
        links = [f"[{c.info_name}](#{_slug(c.command_path)})" for c in below]
        out.extend(["Commands: " + ", ".join(links) + ".", ""])
    return out


def render_cli() -> str:
    contexts = _contexts()
    out = [
        "# Command-line reference",
        "",
        _generated("the click commands (`graphmem.cli.main:cli`)"),
        "",
        "Every command takes `-h`/`--help`, which prints the same text. Commands that "
        "installed design plug-ins add are not listed here.",
        "",
    ]
    out.extend(f"- [{c.command_path}](#{_slug(c.command_path)})" for c in contexts)
    out.append("")
    for ctx in contexts:
        out.extend(_command_section(ctx, [c for c in contexts if c.parent is ctx]))
    return "\n".join(out).rstrip() + "\n"


# --- the settings ----------------------------------------------------------------------


def _type_name(annotation: Any, metadata: list[Any]) -> str:
    args = typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Literal:
        return "one of " + ", ".join(_code(str(a)) for a in args)
    if type(None) in args:
        rest = [a for a in args if a is not type(None)]
        inner = _type_name(rest[0], metadata) if len(rest) == 1 else "value"
        return f"{inner}, optional"
    origin = typing.get_origin(annotation)
    if origin in (list, tuple, set):
        how = "comma list" if any(m is _no_decode() for m in metadata) else "JSON"
        return f"list of {_type_name(args[0], [])} ({how})"
    if origin is dict:
        return f"table of {_type_name(args[1], [])} (JSON)"
    from pydantic import SecretStr

    names = {bool: "bool", int: "int", float: "float", str: "str", Path: "path"}
    names[SecretStr] = "secret str"
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)).lower())


def _no_decode() -> Any:
    from pydantic_settings import NoDecode

    return NoDecode


def _constraints(metadata: list[Any]) -> str:
    said = []
    for item in metadata:
        for attr, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            if getattr(item, attr, None) is not None:
                said.append(f"{sign} {getattr(item, attr)}")
        if getattr(item, "pattern", None):
            said.append(f"matching {_code(item.pattern)}")
    return ", ".join(said)


def _value(value: Any, toml: bool) -> str:
    if value is None:
        return "unset"
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str) and not toml:
        return _code(value) if value else "empty"
    if isinstance(value, Path):
        return _code(str(value))
    if isinstance(value, tuple | list | set | dict | bool | str):
        return _code(json.dumps(list(value) if isinstance(value, tuple | set) else value))
    return _code(repr(value))


def _default(info: Any, toml: bool) -> str:
    factory: Callable[[], Any] | None = info.default_factory
    if factory is None:
        return _value(info.default, toml)
    if factory in (list, tuple, dict, set):
        return _value(factory(), toml)
    return "set at run time (see the description)"


def _settings_rows(settings: type[Any], toml: bool) -> list[list[str]]:
    rows = []
    for name, info in settings.model_fields.items():
        bounds = _constraints(info.metadata)
        kind = _type_name(info.annotation, info.metadata) + (f", {bounds}" if bounds else "")
        described = _cell(info.description or "")
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if "cosine" in extra:
            described += " (a cosine on MiniLM's scale, mapped to the embedder's)"
        variables = ", ".join(_code(v) for v in env_names(settings, name))
        rows.append([_code(name), variables, kind, _default(info, toml), described])
    return rows


def env_names(settings: type[Any], field: str) -> list[str]:
    """The environment variables a field is read from, as pydantic-settings reads them."""
    from pydantic import AliasChoices

    prefix = str(settings.model_config.get("env_prefix", ""))
    alias = settings.model_fields[field].validation_alias
    if isinstance(alias, AliasChoices):
        return [str(choice).upper() for choice in alias.choices if isinstance(choice, str)]
    if isinstance(alias, str):
        return [alias.upper()]
    return [f"{prefix}{field}".upper()]


def design_settings() -> list[Any]:
    """The registered designs, layers and strategies that have settings, graphmem's own."""
    from graphmem.plugin.registry import registry

    return [
        d
        for d in registry().values()
        if d.settings.model_fields and d.settings.__module__.startswith("graphmem.")
    ]


_CONFIG_INTRO = """\
## Where settings come from

graphmem's own settings (`graphmem.config.Settings`) are read from the environment when a
command starts, or passed in Python as `Settings(name=value)`. A field read from variables
other than `GRAPHMEM_<FIELD>` takes one of those names as its keyword in Python too
(`Settings(GRAPHMEM_CONFIG="graphmem.toml")`). Variable names are case-insensitive.

Each design has settings of its own. They resolve, from lowest to highest priority: the
settings' defaults, the chosen preset (`--preset`, `GRAPHMEM_PRESET`, or the file's
`preset` keys), the config file (`--config PATH`, `GRAPHMEM_CONFIG`, else
`$GRAPHMEM_HOME/graphmem.toml` when it exists), the environment
(`GRAPHMEM_<DESIGN>_<SETTING>`), and values a Python caller passes. A `GRAPHMEM_<DESIGN>_`
variable that names no setting of that design is an error, not ignored.
`graphmem designs NAME` prints each setting's resolved value.

```toml
preset = "paper"            # every design's preset unless it names its own

[designs.seem]
preset = "default"
rpe_factor = 2.0
```
"""


def _design_section(found: Any) -> list[str]:
    settings = found.settings
    prefix = str(settings.model_config.get("env_prefix", ""))
    out = [f"### {found.name} ({found.title})", ""]
    where = f"Environment: `{prefix}<SETTING>`; config file: `[designs.{found.name}]`."
    if found.docs:
        where += f" See [{found.docs}]({os.path.relpath(found.docs, 'docs')})."
    out.extend([where, ""])
    head = ["Setting", "Environment", "Type", "Default", "Description"]
    out.extend(_table(head, _settings_rows(settings, toml=True)))
    for name, preset in found.presets.items():
        out.extend([f"Preset `{name}`: {_cell(preset.description).rstrip('.')}.", ""])
        rows = [
            [_code(key), _value(value, True), _cell(preset.sources.get(key, ""))]
            for key, value in preset.values.items()
        ]
        for key, source in preset.sources.items():  # a default the preset keeps, sourced
            if key not in preset.values:
                kept = f"{_default(settings.model_fields[key], True)} (the default)"
                rows.append([_code(key), kept, _cell(source)])
        if rows:
            out.extend(_table(["Setting", "Value", "Source"], rows))
    return out


def render_configuration() -> str:
    from graphmem.config import Settings

    out = [
        "# Configuration",
        "",
        _generated(
            "the field descriptions of `graphmem.config.Settings` and of each design's "
            "settings class"
        ),
        "",
        _CONFIG_INTRO,
        "## graphmem's settings",
        "",
    ]
    head = ["Setting", "Environment", "Type", "Default", "Description"]
    out.extend(_table(head, _settings_rows(Settings, toml=False)))
    out.extend(["## Design settings", ""])
    for found in design_settings():
        out.extend(_design_section(found))
    return "\n".join(out).rstrip() + "\n"


PAGES: dict[str, Callable[[], str]] = {
    "docs/cli.md": render_cli,
    "docs/configuration.md": render_configuration,
}


def main(argv: list[str] | None = None) -> int:
    from graphmem.process import lean_imports as _lean_imports

    _lean_imports.install()
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    stale = []
    for name, render in PAGES.items():
        path = ROOT / name
        text = render()
        if check:
            current = path.read_text(encoding="utf-8") if path.is_file() else ""
            if current != text:
                stale.append(name)
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {name}")
    if stale:
        print(f"stale: {', '.join(stale)}; run `{REGENERATE}`", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
