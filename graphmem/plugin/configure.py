"""Resolving each design's settings once per process, from (lowest to highest priority):
the settings class defaults, the chosen preset, the config file (TOML), the environment
(``GRAPHMEM_<NAME>_<FIELD>``) and explicit overrides from the caller.

The config file (``--config PATH``, ``GRAPHMEM_CONFIG`` or ``$GRAPHMEM_HOME/graphmem.toml``)::

    preset = "paper"            # every design's preset unless it names its own

    [designs.seem]
    preset = "default"
    rpe_factor = 2.0
"""

from __future__ import annotations

import copy
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import AliasChoices, ValidationError
from pydantic_settings import SettingsError

from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.plugin.design import Design, DesignSettings
from graphmem.plugin.registry import design, registry

if TYPE_CHECKING:
    from graphmem.embed.base import Embedder


def read_config_file(path: Path | None) -> dict[str, Any]:
    """The TOML file as a dict; ``{}`` when there is none. A named file must exist."""
    if path is None:
        return {}
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from None
    unknown = set(data) - {"preset", "designs"}
    if unknown:
        raise ConfigError(
            f"config file {path}: unknown top-level key(s) {', '.join(sorted(unknown))}",
            hint="expected 'preset' and [designs.<name>] tables",
        )
    return data


def _has_preset(found: Design, name: str, where: str) -> None:
    if name not in found.preset_names:
        raise ConfigError(
            f"{where}design {found.name} has no preset {name!r}",
            hint=f"choose from {', '.join(found.preset_names)}",
        )


class DesignConfigs:
    """The resolved settings of every design, built once and passed down (in the build and
    retrieval contexts). Resolution is lazy per design so a broken plug-in's settings do not
    stop the others; constructing this object does no I/O beyond reading the config file."""

    def __init__(
        self,
        preset: str | None = None,
        presets: Mapping[str, str] | None = None,
        overrides: Mapping[str, Mapping[str, Any]] | None = None,
        config_file: Path | None = None,
        file_data: Mapping[str, Any] | None = None,
    ) -> None:
        data = dict(file_data) if file_data is not None else read_config_file(config_file)
        self._source = str(config_file) if config_file else "config"
        self._tables: dict[str, dict[str, Any]] = {
            name: dict(table) for name, table in data.get("designs", {}).items()
        }
        # Precedence of preset choice: per-design argument > global argument > per-design
        # table in the file > global key in the file > "default".
        self._global_preset = preset or data.get("preset")
        self._explicit_global = preset
        self._presets = dict(presets or {})
        self._overrides = {name: dict(values) for name, values in (overrides or {}).items()}
        self._resolved: dict[str, DesignSettings] = {}
        self._checked = False
        # Set on the copy ``on_embedder`` returns: thresholds on that embedder's scale.
        self._embedder: Embedder | None = None
        self._scaled: dict[str, DesignSettings] = {}

    def check(self) -> None:
        """Every name the caller chose exists: a per-design preset in its design (and the
        design), a global preset in at least one design (a design without it uses its
        defaults, which is why resolution alone cannot catch a misspelt one), and every
        ``[designs.NAME]`` table of the file a design, and every ``GRAPHMEM_<DESIGN>_<X>``
        variable a setting of that design. Raises ``ConfigError``."""
        if self._checked:
            return
        _check_environment(registry())
        for name, preset_name in self._presets.items():
            _has_preset(design(name), preset_name, "")
        for name, table in self._tables.items():
            if name not in registry():
                raise ConfigError(
                    f"{self._source}: [designs.{name}]: unknown design {name!r}",
                    hint=f"choose from {', '.join(registry())}",
                )
            if "preset" in table:
                _has_preset(design(name), str(table["preset"]), f"{self._source}: ")
        chosen = self._global_preset
        offered = sorted({p for d in registry().values() for p in d.preset_names})
        if chosen and chosen not in offered:
            raise ConfigError(
                f"no design has a preset {chosen!r}", hint=f"choose from {', '.join(offered)}"
            )
        self._checked = True

    def preset_of(self, design: Design) -> str:
        if design.name in self._presets:
            return self._presets[design.name]
        if self._explicit_global:
            return self._explicit_global
        table_preset = self._tables.get(design.name, {}).get("preset")
        return str(table_preset or self._global_preset or "default")

    def get(self, name: str) -> Any:
        """The settings instance of design ``name`` (typed ``Any`` so each design can annotate
        its own settings class at the call site)."""
        if name not in self._resolved:
            self._resolved[name] = self._resolve(design(name))
        if self._embedder is None:
            return self._resolved[name]
        if name not in self._scaled:
            from graphmem.embed.scale import for_embedder

            self._scaled[name] = for_embedder(self._resolved[name], self._embedder)
        return self._scaled[name]

    def on_embedder(self, embedder: Embedder) -> DesignConfigs:
        """These settings as ``embedder`` reads them: each cosine threshold a design
        declares (``Field(json_schema_extra={"cosine": KIND})``) is given on MiniLM's scale
        and mapped to ``embedder``'s (``graphmem/embed/scale.py``) at its first ``get``.
        The build and retrieval contexts hold this view; everything else (recorded build
        settings, `graphmem designs`) sees the values as given."""
        if self._embedder is not None and self._embedder.name == embedder.name:
            return self
        view = copy.copy(self)  # shares the resolved reference values
        view._embedder = embedder
        view._scaled = {}
        return view

    def _resolve(self, design: Design) -> DesignSettings:
        preset_name = self.preset_of(design)
        # A global preset a design does not define falls back to its defaults; one named
        # for this design in particular is a mistake.
        if design.name in self._presets or preset_name != self._global_preset:
            _has_preset(design, preset_name, "")
        known = preset_name in design.preset_names
        preset = design.preset(preset_name if known else "default")
        table = self._settings_table(design.name)
        unknown = set(table) - set(design.settings.model_fields)
        if unknown:
            raise ConfigError(
                f"{self._source}: [designs.{design.name}] has unknown setting(s) "
                f"{', '.join(sorted(unknown))}",
                hint=f"see `graphmem designs {design.name}`",
            )
        try:
            from_env = design.settings()
        except SettingsError as exc:
            raise _unparsable(design, exc) from None
        except ValidationError as exc:
            raise _invalid(design, exc, lambda field: _env_name(design.settings, field)) from None
        env_values = {k: getattr(from_env, k) for k in from_env.model_fields_set}
        override = self._overrides.get(design.name, {})
        values = {**preset.values, **table, **env_values, **override}

        def origin(field: str) -> str:
            if field in override:
                return f"{design.name} setting {field} (given by the caller)"
            if field in env_values:
                return _env_name(design.settings, field)
            if field in table:
                return f"{self._source}: [designs.{design.name}] {field}"
            return f"{design.name} setting {field} (preset {preset_name!r})"

        try:
            return design.settings(**values)
        except ValidationError as exc:
            raise _invalid(design, exc, origin) from None

    def _settings_table(self, name: str) -> dict[str, Any]:
        """The config file's settings for design ``name`` (its table without the preset)."""
        return {k: v for k, v in self._tables.get(name, {}).items() if k != "preset"}

    def overridden(self) -> dict[str, dict[str, Any]]:
        """Per design, the settings given beside its preset (its config-file table, its
        ``GRAPHMEM_<NAME>_<FIELD>`` variables, explicit overrides), as given: what a
        measurement depends on beyond ``describe()``. Nothing is validated here, so a design
        the caller does not use cannot fail."""
        out: dict[str, dict[str, Any]] = {}
        for name, found in registry().items():
            given = self._settings_table(name)
            given.update(_from_environment(found.settings))
            given.update(self._overrides.get(name, {}))
            if given:
                out[name] = dict(sorted(given.items()))
        return out

    def describe(self) -> dict[str, str]:
        """The preset each registered design resolves to (``default`` where a globally
        chosen preset does not exist for that design)."""
        out = {}
        for name, found in registry().items():
            chosen = self.preset_of(found)
            out[name] = chosen if chosen in found.preset_names else "default"
        return out


def _from_environment(settings: type[DesignSettings]) -> dict[str, str]:
    """The variables naming one of ``settings``' fields under its prefix (case-insensitive,
    as pydantic-settings reads them), as raw text."""
    prefix = str(settings.model_config.get("env_prefix", "")).upper()
    if not prefix:
        return {}
    found = {}
    for key, value in os.environ.items():
        if key.upper().startswith(prefix):
            field = key[len(prefix) :].lower()
            if field in settings.model_fields:
                found[field] = value
    return found


def _core_variables() -> set[str]:
    """The variables graphmem's own settings read (``GRAPHMEM_LLM_MODEL``, ``NEO4J_URI``)."""
    names: set[str] = set()
    for field, info in Settings.model_fields.items():
        alias = info.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [f"GRAPHMEM_{field}"]
        names.update(str(choice).upper() for choice in choices)
    return names


def _prefixes(found: Design) -> set[str]:
    own = str(found.settings.model_config.get("env_prefix", "")).upper()
    return {p for p in (f"GRAPHMEM_{found.name.upper()}_", own) if p}


def _check_environment(designs: Mapping[str, Design]) -> None:
    """A ``GRAPHMEM_<DESIGN>_<X>`` variable naming no setting of that design (a typo, or a
    setting since renamed) is a ConfigError: ignoring it would run with another value than
    the one the user set. A variable under several designs' prefixes (``seem`` and a
    ``seem_plus``) must name a setting of one of them."""
    core = _core_variables()
    unknown: dict[str, Design] = {}
    for key in os.environ:
        variable = key.upper()
        if not variable.startswith("GRAPHMEM_") or variable in core:
            continue
        under = [(p, d) for d in designs.values() for p in _prefixes(d) if variable.startswith(p)]
        named = any(variable[len(p) :].lower() in d.settings.model_fields for p, d in under)
        if under and not named:
            unknown[key] = max(under, key=lambda pair: len(pair[0]))[1]
    if unknown:
        said = "; ".join(
            f"{key} names no setting of design {found.name}" for key, found in unknown.items()
        )
        names = sorted({found.name for found in unknown.values()})
        raise ConfigError(
            said,
            hint=f"unset it, or see {' and '.join(f'`graphmem designs {n}`' for n in names)} "
            "for the settings and their variables",
        )


def _env_name(settings: type[DesignSettings], field: str) -> str:
    return f"{settings.model_config.get('env_prefix', '')}{field}".upper()


def _invalid(design: Design, exc: ValidationError, origin: Callable[[str], str]) -> ConfigError:
    """Every bad setting in one message, each named where it came from (the environment
    variable a user would set, the file's table, the preset), its messages joined: a union
    such as ``rrf_k`` (a number or "depth") fails once per alternative."""
    problems: dict[str, list[str]] = {}
    for err in exc.errors():
        field = str(err["loc"][0]) if err["loc"] else "settings"
        problems.setdefault(field, [])
        if err["msg"] not in problems[field]:
            problems[field].append(err["msg"])
    said = "; ".join(f"{origin(f)}: {' or '.join(msgs)}" for f, msgs in problems.items())
    return ConfigError(
        f"invalid settings of design {design.name}: {said}",
        hint=f"see `graphmem designs {design.name}` for each setting and its values",
    )


def _unparsable(design: Design, exc: SettingsError) -> ConfigError:
    """A variable pydantic-settings could not decode (a dict or list setting takes JSON)."""
    found = re.search(r'field "([^"]+)"', str(exc))
    field = found.group(1) if found else ""
    if field not in design.settings.model_fields:
        return ConfigError(f"invalid settings of design {design.name}: {exc}")
    kind = design.settings.model_fields[field].annotation
    return ConfigError(
        f"invalid settings of design {design.name}: {_env_name(design.settings, field)} "
        f"cannot be read: it takes JSON ({kind})",
        hint=f"see `graphmem designs {design.name}` for each setting and its values",
    )
