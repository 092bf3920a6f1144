"""A design's record: its labels (``Label``), its hooks given as import strings (imported on
first use, so reading a record imports none of its code) and the commands it declares."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import click
import pytest

from graphmem.errors import ConfigError
from graphmem.plugin.design import Command, Design, Label, Reembed
from graphmem.plugin.lazy import Lazy
from graphmem.plugin.registry import commands, register, unregister
from graphmem.plugin.style import NodeStyle

STYLE = NodeStyle(color="#123456", caption="{name}", meaning="m")


def _design(**fields: object) -> Design:
    return Design(name="rec", title="r", summary="r", **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"statement": "text"}, "a derived label"),
        ({"derived": True, "statement": "not a property"}, "a property name"),
        ({"derived": True, "valid_time": True}, "only a statement label"),
        ({"valid_time": True}, "only a statement label"),
    ],
)
def test_a_label_that_contradicts_itself_is_refused(
    fields: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Label(**fields)  # type: ignore[arg-type]


def test_a_label_style_is_a_node_style() -> None:
    with pytest.raises(TypeError, match="a NodeStyle expected"):
        Label(style={"color": "#123456"})  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["fact", "Two words", "Fact:x", ""])
def test_label_names_are_label_names(name: str) -> None:
    with pytest.raises(ValueError, match="label names mapped to a Label"):
        _design(labels={name: Label()})


def test_labels_are_a_mapping_of_labels() -> None:
    with pytest.raises(ValueError, match="label names mapped to a Label"):
        _design(labels={"Fact": True})
    with pytest.raises(TypeError, match="mappings by name"):
        _design(labels=("Fact",))  # the parallel fields' shape before Label


def test_the_old_fields_read_from_the_labels_in_label_order() -> None:
    design = _design(
        labels={
            "Entity": Label(indexed=True, style=STYLE),
            "Fact": Label(derived=True, indexed=True, statement="text", valid_time=True),
            "Event": Label(derived=True, statement="action"),
        }
    )
    assert design.label_names == ("Entity", "Fact", "Event")
    assert list(design.labels) == ["Entity", "Fact", "Event"]
    assert design.derived_labels == ("Fact", "Event")
    assert design.indexed_labels == ("Entity", "Fact")
    assert design.statements == {"Fact": "text", "Event": "action"}
    assert design.valid_time == ("Fact",)
    assert design.styles == {"Entity": STYLE}
    described = design.describe()
    assert (described["labels"], described["derived_labels"], described["indexed_labels"]) == (
        ["Entity", "Fact", "Event"],
        ["Fact", "Event"],
        ["Entity", "Fact"],
    )


def test_an_import_string_is_imported_on_first_call_and_kept() -> None:
    design = _design(
        builder="json:dumps",
        retrievers={"a": "json:loads", "b": json.dumps},
        stats="json:dumps",
        reembed=Reembed(labels=(), run="json:dumps"),
    )
    builder = design.builder
    assert isinstance(builder, Lazy) and builder.target == "json:dumps"
    # Where it comes from, as for the callable itself (functools.wraps does the same).
    assert (builder.__module__, builder.__name__) == ("json", "dumps")
    assert builder([1]) == "[1]" and builder.resolve() is json.dumps
    assert design.retrievers["a"]("[2]") == [2]
    assert design.retrievers["b"] is json.dumps  # a callable stays as given
    assert design.reembed is not None and design.reembed.run({}) == "{}"
    assert _design(builder="json:dumps") == _design(builder="json:dumps")
    assert _design().builder is None and dict(_design().retrievers) == {}


@pytest.mark.parametrize("target", ["json", "json.dumps", "json:", ":dumps", "json:dumps()"])
def test_a_malformed_import_string_is_refused_when_the_record_is_read(target: str) -> None:
    with pytest.raises(ValueError, match=r"'package\.module:attribute' expected"):
        _design(builder=target)


def test_a_missing_target_is_a_config_error_when_first_used() -> None:
    design = _design(builder="json:no_such_function", stats="graphmem_no_such_module:f")
    assert design.builder is not None and design.stats is not None
    with pytest.raises(ConfigError, match="json has no no_such_function"):
        design.builder(None, None)
    with pytest.raises(ModuleNotFoundError):
        design.stats(None, "s")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="is not callable"):
        _design(builder="json:__name__").builder(None, None)  # type: ignore[misc]
    with pytest.raises(TypeError, match="a callable or"):
        _design(builder=3)


def test_reading_every_record_imports_none_of_the_designs_code() -> None:
    """The registry reads every built-in record (and ``graphmem --help`` does): the
    builders, retrievers, stats, re-embedding and commands load when first used."""
    script = (
        "import sys\n"
        "from graphmem.plugin.registry import registry, strategy_names\n"
        "found = registry(); strategy_names()\n"
        "heavy = {'numpy', 'spacy', 'neo4j', 'torch', 'sentence_transformers', 'click'}\n"
        "ends = ('.builder', '.retriever', '.stats', '.reembed', '.cli', '.passages', '.members')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy\n"
        "    or m.startswith('graphmem.') and m.endswith(ends)))\n"
        "print(len(found))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    loaded, count = run.stdout.splitlines()
    assert loaded == "[]"
    assert int(count) >= 8  # baselines, semantic, the five designs, graphmem


def test_a_command_declares_its_help_and_target() -> None:
    with pytest.raises(ValueError, match="needs a help line"):
        Command(help=" ", target="pkg.cli:run")
    with pytest.raises(ValueError, match=r"'package\.module:attribute' expected"):
        Command(help="Run.", target="pkg.cli")
    with pytest.raises(ValueError, match="names mapped to a Command"):
        _design(commands={"Bad Name": Command(help="Run.", target="pkg.cli:run")})
    with pytest.raises(ValueError, match="names mapped to a Command"):
        _design(commands={"run": "pkg.cli:run"})
    with pytest.raises(TypeError, match="not a click command"):
        Command(help="Dumps.", target="json:dumps").load()
    here = click.Command("here", help="Right here.")
    assert Command(help="Right here.", target=here).load() is here


@pytest.fixture
def registered() -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    for name in names:
        unregister(name)


def test_two_designs_declaring_one_command_are_refused(registered: list[str]) -> None:
    one = Command(help="Profile.", target="pkg.cli:profile")
    register(Design(name="uno", title="u", summary="u", commands={"profile-x": one}))
    registered.append("uno")
    assert commands()["profile-x"] is one
    register(Design(name="dos", title="d", summary="d", commands={"profile-x": one}))
    registered.append("dos")
    with pytest.raises(ConfigError, match="declared by both uno and dos"):
        commands()


def test_a_design_cannot_shadow_a_core_command(registered: list[str]) -> None:
    from graphmem.cli.main import _design_commands

    query = Command(help="Mine.", target="pkg.cli:query")
    register(Design(name="shadow", title="s", summary="s", commands={"query": query}))
    registered.append("shadow")
    with pytest.raises(ConfigError, match="named as graphmem's own: \\['query'\\]"):
        _design_commands()
