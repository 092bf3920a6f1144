"""The design registry and settings resolution (no database)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import Field
from pydantic_settings import SettingsConfigDict

from graphmem.cli.common import parse_preset
from graphmem.cli.main import cli
from graphmem.config import Settings, given_settings
from graphmem.errors import ConfigError
from graphmem.memory import Memory
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.design import Design, DesignSettings, Preset
from graphmem.plugin.registry import (
    build_order,
    builders_for,
    register,
    registry,
    strategy_names,
    unregister,
)
from tests.example_design.design import DESIGN as EXAMPLE
from tests.paths import ROOT


class ToySettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_TOY_")

    alpha: float = Field(default=1.0, description="a knob")
    beta: int = 3


def _noop_builder(ctx: object, settings: object) -> object:
    raise AssertionError("never built in these tests")


TOY = Design(
    name="toy",
    title="Toy",
    summary="for tests",
    settings=ToySettings,
    builder=_noop_builder,  # type: ignore[arg-type]
    requires=("keywords",),
    presets={"paper": Preset(description="p", values={"alpha": 0.5}, sources={"alpha": "s2"})},
)


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(EXAMPLE)
    register(TOY)
    yield
    unregister("toy")


def test_registry_lists_layers_baselines_and_designs() -> None:
    names = list(registry())
    assert names[0] == "baselines"
    assert {"seem", "anchormem", "keywords", "toy"} <= set(names)
    assert {"dense", "fulltext", "hybrid", "seem", "hipporag", "anchormem"} <= set(strategy_names())


def test_build_order_puts_required_layers_first() -> None:
    assert build_order(["toy"]) == ["keywords", "toy"]
    assert build_order(["keywords", "toy", "keywords"]) == ["keywords", "toy"]
    assert builders_for(["keywords", "dense"]) == ["keywords"]
    with pytest.raises(ConfigError, match="unknown builder"):
        build_order(["nope"])


def test_requires_cycle_is_refused() -> None:
    loop = Design(name="loop", title="l", summary="l", builder=_noop_builder, requires=("loop",))  # type: ignore[arg-type]
    register(loop)
    try:
        with pytest.raises(ConfigError, match="cycle"):
            build_order(["loop"])
    finally:
        unregister("loop")


def test_duplicate_strategy_is_refused() -> None:
    clash = Design(name="clash", title="c", summary="c", retrievers={"dense": object})  # type: ignore[dict-item]
    with pytest.raises(ConfigError, match="strategy 'dense'"):
        register(clash)
    unregister("clash")


def test_presets_must_name_existing_settings() -> None:
    with pytest.raises(ValueError, match="unknown settings"):
        Design(
            name="bad",
            title="b",
            summary="b",
            settings=ToySettings,
            presets={"paper": Preset(description="x", values={"gamma": 1})},
        )


def test_resolution_order_default_preset_file_env_override(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert DesignConfigs().get("toy").alpha == 1.0
    assert DesignConfigs(preset="paper").get("toy").alpha == 0.5
    data = {"preset": "paper", "designs": {"toy": {"beta": 7}}}
    from_file = DesignConfigs(file_data=data).get("toy")
    assert (from_file.alpha, from_file.beta) == (0.5, 7)
    monkeypatch.setenv("GRAPHMEM_TOY_BETA", "9")
    assert DesignConfigs(file_data=data).get("toy").beta == 9
    override = DesignConfigs(file_data=data, overrides={"toy": {"beta": 11}})
    assert override.get("toy").beta == 11


def test_overridden_lists_what_was_given_beside_the_preset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An evaluation records these: a variable left set in a shell changes a number."""
    assert "toy" not in DesignConfigs(preset="paper").overridden()  # a preset alone
    monkeypatch.setenv("GRAPHMEM_TOY_BETA", "9")
    assert DesignConfigs().overridden()["toy"] == {"beta": "9"}
    monkeypatch.setenv("graphmem_toy_alpha", "0.25")  # read case-insensitively, as resolved
    monkeypatch.setenv("GRAPHMEM_TOY_NOT_A_FIELD", "1")
    monkeypatch.delenv("GRAPHMEM_TOY_BETA")
    data = {"preset": "paper", "designs": {"toy": {"preset": "paper", "beta": 7}}}
    assert DesignConfigs(file_data=data).overridden()["toy"] == {"alpha": "0.25", "beta": 7}
    configs = DesignConfigs(file_data=data, overrides={"toy": {"beta": 11}})
    assert configs.overridden()["toy"] == {"alpha": "0.25", "beta": 11}
    resolved = configs.get("toy")  # what was recorded is what resolves
    assert (resolved.alpha, resolved.beta) == (0.25, 11)


def test_given_settings_leave_secrets_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NEO4J_PASSWORD", "hunter2")
    monkeypatch.setenv("GRAPHMEM_SNAPSHOT_RECHECK_SECONDS", "0")
    given = given_settings(Settings())
    assert given["snapshot_recheck_seconds"] == "0.0"
    assert "neo4j_password" not in given and "hunter2" not in json.dumps(given)


def test_a_global_preset_a_design_lacks_falls_back_but_a_named_one_is_an_error() -> None:
    configs = DesignConfigs(preset="paper")
    assert configs.describe()["baselines"] == "default"
    with pytest.raises(ConfigError, match="no preset 'nope'"):
        DesignConfigs(presets={"toy": "nope"}).get("toy")


def test_check_refuses_names_no_design_has_before_any_is_resolved() -> None:
    DesignConfigs(preset="paper", presets={"toy": "default"}).check()  # all exist
    with pytest.raises(ConfigError, match="no design has a preset 'papr'"):
        DesignConfigs(preset="papr").check()  # every design would fall back silently
    with pytest.raises(ConfigError, match="unknown design 'nosuchdesign'"):
        DesignConfigs(presets={"nosuchdesign": "paper"}).check()
    with pytest.raises(ConfigError, match="design toy has no preset 'nope'"):
        DesignConfigs(presets={"toy": "nope"}).check()
    with pytest.raises(ConfigError, match="unknown design 'tyo'"):
        DesignConfigs(file_data={"designs": {"tyo": {"alpha": 2.0}}}).check()
    with pytest.raises(ConfigError, match="design toy has no preset 'papr'"):
        DesignConfigs(file_data={"designs": {"toy": {"preset": "papr"}}}).check()


def test_the_python_api_checks_presets_before_building_a_retriever() -> None:
    memory = Memory(Settings(neo4j_uri="bolt://127.0.0.1:1"), preset="papr")  # no server
    with pytest.raises(ConfigError, match="no design has a preset 'papr'"):
        memory.retriever("hybrid", "any")


def test_the_cli_refuses_a_preset_no_design_has() -> None:
    result = CliRunner().invoke(cli, ["designs"], env={"GRAPHMEM_PRESET": "papr"})
    assert result.exit_code == 2
    assert "no design has a preset 'papr'" in result.output


def test_config_file_errors_name_the_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "graphmem.toml"
    bad.write_text("[designs.toy]\ngamma = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"graphmem.toml.*gamma"):
        DesignConfigs(config_file=bad).get("toy")
    bad.write_text("preset = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"graphmem\.toml"):
        DesignConfigs(config_file=bad)
    with pytest.raises(ConfigError, match="does not exist"):
        DesignConfigs(config_file=tmp_path / "missing.toml")


def test_invalid_value_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"toy setting beta \(given by the caller\): Input"):
        DesignConfigs(overrides={"toy": {"beta": "many"}}).get("toy")


def test_parse_preset_spec() -> None:
    assert parse_preset("paper") == ("paper", {})
    assert parse_preset("paper, seem=default") == ("paper", {"seem": "default"})
    assert parse_preset(None) == (None, {})
    with pytest.raises(ConfigError):
        parse_preset("paper,default")
    with pytest.raises(ConfigError):
        parse_preset("seem=")


def test_designs_command_lists_every_entry_with_presets_and_sources() -> None:
    result = CliRunner().invoke(cli, ["designs", "--json"])
    assert result.exit_code == 0, result.output
    entries = {e["name"]: e for e in json.loads(result.output)}
    assert {"baselines", "seem", "anchormem", "toy"} <= set(entries)
    toy = entries["toy"]
    assert toy["presets"]["paper"]["sources"] == {"alpha": "s2"}
    assert {s["name"]: s["env"] for s in toy["settings"]}["alpha"] == "GRAPHMEM_TOY_ALPHA"


def test_designs_command_resolves_the_chosen_preset_from_a_config_file(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('preset = "paper"\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["--config", str(config), "designs", "toy", "--json"])
    assert result.exit_code == 0, result.output
    entry = json.loads(result.output)
    assert entry["preset"] == "paper"
    assert {s["name"]: s["value"] for s in entry["settings"]}["alpha"] == 0.5


def test_unknown_design_is_a_clean_error() -> None:
    result = CliRunner().invoke(cli, ["designs", "nope"])
    assert result.exit_code == 2
    assert "unknown design 'nope'" in result.output


@pytest.mark.parametrize(
    ("variables", "said"),
    [
        # (family may be None, declared by the designs: not JSON is then not a dictionary)
        (
            {"GRAPHMEM_GRAPHMEM_FAMILY": "not json"},
            "GRAPHMEM_GRAPHMEM_FAMILY: Input should be a valid dictionary",
        ),
        # every bad one, each named as its variable
        (
            {"GRAPHMEM_GRAPHMEM_FUSION": "x", "GRAPHMEM_GRAPHMEM_DERIVED_SHARE": "abc"},
            "GRAPHMEM_GRAPHMEM_FUSION: Input should be 'rrf'",
        ),
        ({"GRAPHMEM_GRAPHMEM_DERIVED_SHARE": "abc"}, "valid number, unable to parse string as a "),
    ],
)
def test_bad_design_variables_are_one_clean_error(
    monkeypatch: pytest.MonkeyPatch, variables: dict[str, str], said: str
) -> None:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(cli, ["designs", "graphmem"])
    assert result.exit_code == 2, result.output
    assert said in result.output and "Traceback" not in result.output
    assert all(name in result.output for name in variables)


def test_a_comma_list_setting_reads_a_comma_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_GRAPHMEM_EXCLUDE", "fulltext, amory")
    assert DesignConfigs().get("graphmem").exclude == ("fulltext", "amory")


def test_ingest_refuses_a_misspelt_builder_before_reading_on() -> None:
    """No progress bar, no connection: the name is checked first."""
    sample = ROOT / "examples" / "sample_conversation.jsonl"
    result = CliRunner().invoke(
        cli, ["ingest", str(sample), "--space", "never-made", "--builders", "semantc"]
    )
    assert result.exit_code == 2
    assert "unknown builder 'semantc'" in result.output and "%|" not in result.output
