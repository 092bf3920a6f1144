"""What every CLI command shares: settings built once, clean errors, JSON or text output."""

from __future__ import annotations

import functools
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from neo4j.exceptions import DriverError, Neo4jError
from pydantic import ValidationError
from pydantic_settings import SettingsError

from graphmem.config import Settings
from graphmem.errors import ConfigError, GraphmemError, InputError, ServerLostError
from graphmem.graph.store import driver_error
from graphmem.ingest.validate import check_space
from graphmem.plugin.configure import DesignConfigs
from graphmem.serving.limits import check_budget, check_strategy, parse_builders

if TYPE_CHECKING:  # imported when a command needs it: it loads spaCy and torch
    from graphmem.memory import Memory

F = TypeVar("F", bound=Callable[..., Any])

# The driver logs each dropped connection before raising; the CLI reports the raised error
# once, cleanly, so the driver's own lines (printed by logging's last-resort handler) go.
logging.getLogger("neo4j").addHandler(logging.NullHandler())
logging.getLogger("neo4j").propagate = False


class AppContext:
    """Built once per invocation and handed to every command through click's context."""

    def __init__(self, config_file: Path | None = None, preset_spec: str | None = None) -> None:
        try:
            self.settings = Settings()
        except ValidationError as exc:
            raise settings_error(exc) from None
        except SettingsError as exc:  # a list setting whose variable is not JSON
            raise unreadable_setting(exc) from None
        if config_file is not None:
            self.settings = self.settings.model_copy(update={"config_file": config_file})
        self._configs: DesignConfigs | None = None
        self.preset_spec = preset_spec

    def configs(self) -> DesignConfigs:
        """Every design's settings, resolved once from ``--preset``, the config file and
        the environment."""
        if self._configs is None:
            global_preset, per_design = parse_preset(self.preset_spec)
            # Checked where a command first uses them (``Memory``'s first ingest or query,
            # `designs`): the check loads every design, which `spaces` or `stats` never need.
            self._configs = DesignConfigs(
                preset=global_preset or self.settings.preset,
                presets=per_design,
                config_file=self.settings.design_config_file,
            )
        return self._configs

    def memory(self) -> Memory:
        from graphmem.memory import Memory

        # A CLI process is graphmem's alone: BLAS threads and the collector tuned for it.
        return Memory(self.settings, configs=self.configs(), tune_process=True)


def parse_preset(spec: str | None) -> tuple[str | None, dict[str, str]]:
    """``paper`` (every design) or ``seem=paper,anchormem=default`` (per design), or both:
    ``paper,seem=default``. An empty name (``--preset ''``, ``paper,``) is a ConfigError:
    running with the defaults instead would hide the mistake."""
    global_preset: str | None = None
    per_design: dict[str, str] = {}
    for part in (p.strip() for p in spec.split(",")) if spec is not None else ():
        if not part:
            raise ConfigError(
                f"{spec!r} names an empty preset",
                hint="NAME for every design, or DESIGN=NAME,... (see `graphmem designs`)",
            )
        name, sep, value = part.partition("=")
        if sep:
            if not name.strip() or not value.strip():
                raise ConfigError(f"{part!r} is not DESIGN=PRESET")
            per_design[name.strip()] = value.strip()
        elif global_preset is not None:
            raise ConfigError(f"{spec!r} names two presets for every design")
        else:
            global_preset = part
    return global_preset, per_design


def preset_option(fn: F) -> F:
    """``--preset``: kept in the click context; the app context reads it when built."""

    def remember(ctx: click.Context, _: click.Parameter, value: str | None) -> str | None:
        if value is not None:
            try:
                parse_preset(value)  # its form now; the names once the designs load
            except ConfigError as exc:
                raise click.BadParameter(exc.message) from None
            ctx.ensure_object(dict)["preset"] = value
        return value

    return click.option(
        "--preset",
        default=None,
        expose_value=False,
        callback=remember,
        help="Design presets: NAME for every design (e.g. paper), or DESIGN=NAME,... "
        "(see `graphmem designs`).",
    )(fn)


def unreadable_setting(exc: SettingsError) -> ConfigError:
    """pydantic-settings' error for a variable it could not parse (a list or table setting
    takes JSON), as one line naming the variable."""
    cause = exc.__cause__
    why = f": {cause}" if cause is not None else ""
    return ConfigError(
        f"{exc}{why}",
        hint="a list setting takes a JSON list, e.g. "
        + "GRAPHMEM_API_TRUSTED_PROXIES='[\"127.0.0.1\"]'",
    )


def settings_error(exc: ValidationError) -> ConfigError:
    """One line per bad setting, named as the environment variable a user would set."""
    problems = []
    for err in exc.errors():
        name = "_".join(str(part) for part in err["loc"]).upper() or "settings"
        env = name if name.startswith("NEO4J_") else f"GRAPHMEM_{name}"
        problems.append(f"{env}: {err['msg']}")
    return ConfigError("invalid settings: " + "; ".join(problems))


def app(ctx: click.Context) -> AppContext:
    obj = ctx.ensure_object(dict)
    if "app" not in obj:
        obj["app"] = AppContext(obj.get("config_file"), obj.get("preset"))
    result: AppContext = obj["app"]
    return result


def handle_errors(fn: F) -> F:
    """Turn graphmem errors into a one-paragraph message and the error's exit code."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphmemError as exc:
            _fail(exc)
        except ValidationError as exc:  # settings built below the edge (design settings)
            _fail(settings_error(exc))
        except (Neo4jError, DriverError) as exc:  # what the store did not already translate
            _fail(driver_error(exc, "the configured server"))
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise  # click's own: usage errors (exit 2), --help, a declined prompt
        except Exception as exc:  # a bug: one line and a report file, never a traceback
            _crashed(exc)

    return wrapper  # type: ignore[return-value]


def _crashed(exc: Exception) -> NoReturn:
    """Exit 1 with one line naming the error and where its traceback was written (a file
    of the owner's only under ``$GRAPHMEM_HOME/logs``), for a bug report."""
    import traceback
    from datetime import datetime

    from graphmem.config import Settings
    from graphmem.eval.private_files import private_dir, write_private

    where = "not written"
    try:
        logs = private_dir(Settings().home / "logs")
        path = logs / f"crash-{datetime.now():%Y%m%d-%H%M%S}.log"
        write_private(path, "".join(traceback.format_exception(exc)))
        where = str(path)
    except Exception:  # the report is a courtesy; the message still goes out
        pass
    click.secho(
        f"error: internal error, a bug in graphmem ({type(exc).__name__}: {exc})\n"
        f"  hint: please report it with the traceback in {where}",
        fg="red",
        err=True,
    )
    sys.exit(1)


_AGAIN = "run the command again once the server is back: "
# What running a command again does after the server went away in its middle.
_RERUNS = {
    "ingest": "ingest resumes where it stopped and writes nothing twice",
    "eval": "its ingest resumes where it stopped and writes nothing twice",
    "forget": "forget deletes what is left",
    "init": "init creates only what is missing",
}
_READ_ONLY = frozenset({"query", "ask", "stats", "spaces", "profile", "doctor", "designs"})


def _in_words_of_the_command(exc: GraphmemError) -> GraphmemError:
    """A lost server's hint as it applies to the running command (the store's own speaks
    of reads and ingests alike)."""
    if not isinstance(exc, ServerLostError):
        return exc
    ctx = click.get_current_context(silent=True)
    path = ctx.command_path.split() if ctx is not None else []
    command = path[1] if len(path) > 1 else ""  # `graphmem eval locomo`: eval
    if command in _RERUNS:
        return exc.rerun_as(_AGAIN + _RERUNS[command])
    if command in _READ_ONLY:
        return exc.rerun_as(_AGAIN + f"{command} only reads, so nothing was changed")
    return exc


def _fail(exc: GraphmemError) -> NoReturn:
    """Exit codes (docs/reliability.md): 1 other, 2 settings, 3 input, 4 server, 5 schema,
    6 catalog, 7 LLM, 8 local model, 9 an evaluation with failed conversations."""
    click.secho(f"error: {_in_words_of_the_command(exc)}", fg="red", err=True)
    sys.exit(exc.exit_code)


def emit(data: Any, as_json: bool, text: Callable[[Any], str] | None = None) -> None:
    if as_json:
        click.echo(json.dumps(data, indent=2, default=str))
    elif text is not None:
        click.echo(text(data))
    else:
        click.echo(_plain(data))


def _plain(data: Any, indent: int = 0) -> str:
    pad = "  " * indent
    if isinstance(data, dict):
        lines = []
        for key, value in data.items():
            if isinstance(value, dict | list):
                lines.append(f"{pad}{key}:")
                lines.append(_plain(value, indent + 1))
            else:
                lines.append(f"{pad}{key}: {value}")
        return "\n".join(lines)
    if isinstance(data, list):
        return "\n".join(_plain(item, indent) for item in data)
    return f"{pad}{data}"


def space_param(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Click callback for ``--space``: the same rule the Python API applies."""
    try:
        return check_space(value)
    except InputError as exc:
        raise click.BadParameter(exc.message) from None


def usage_error(exc: InputError) -> click.BadParameter:
    """An option value ``graphmem.serving.limits`` refuses, as click's bad option value (exit code
    2): the Python API's words, without the field (click names the option)."""
    said = exc.message.removeprefix(f"field {exc.field!r}: ") if exc.field else exc.message
    return click.BadParameter(f"{said} ({exc.hint})" if exc.hint else said)


def budget_param(_: click.Context, __: click.Parameter, value: Any) -> Any:
    """``--budget`` (one or repeated): the bounds of every surface (graphmem.serving.limits)."""
    try:
        return tuple(map(check_budget, value)) if isinstance(value, tuple) else check_budget(value)
    except InputError as exc:
        raise usage_error(exc) from None


def strategy_param(_: click.Context, __: click.Parameter, value: str) -> str:
    """``--strategy``: a name the registry knows, checked as the Python API checks it (not
    click.Choice: `--help` then imports no design)."""
    try:
        return check_strategy(value)
    except InputError as exc:
        raise usage_error(exc) from None


def builders_param(_: click.Context, __: click.Parameter, value: str) -> list[str]:
    """``--builders``: all, none or a comma list, parsed as the Python API parses it, so a
    misspelt builder is said before anything is read or written."""
    try:
        return parse_builders(value)
    except InputError as exc:
        raise usage_error(exc) from None


json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
strict_option = click.option(
    "--strict",
    is_flag=True,
    help="Refuse turns with no text and repeated sessions (or turn ids) instead of skipping "
    "and counting them; over-long texts are refused either way.",
)
