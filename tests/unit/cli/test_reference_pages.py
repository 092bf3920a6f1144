"""docs/cli.md and docs/configuration.md are what ``graphmem/cli/reference.py`` renders from
the click commands and the settings' field descriptions, and every setting is described."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from pydantic_settings import EnvSettingsSource

from graphmem.cli import reference
from graphmem.config import Settings


@pytest.mark.parametrize("page", sorted(reference.PAGES))
def test_the_committed_page_is_what_the_generator_renders(page: str) -> None:
    committed = (reference.ROOT / page).read_text(encoding="utf-8")
    rendered = reference.PAGES[page]()
    assert committed == rendered, f"{page} is stale: run `{reference.REGENERATE}`"


def test_a_stale_page_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docs").mkdir()
    for page, render in reference.PAGES.items():
        (tmp_path / page).write_text(render(), encoding="utf-8")
    monkeypatch.setattr(reference, "ROOT", tmp_path)
    assert reference.main(["--check"]) == 0
    stale = tmp_path / "docs/cli.md"
    stale.write_text(stale.read_text(encoding="utf-8").replace("--space", "--room"))
    assert reference.main(["--check"]) == 1


def test_every_setting_has_a_description() -> None:
    missing = [name for name, info in Settings.model_fields.items() if not info.description]
    assert not missing, f"describe these fields of graphmem.config.Settings: {missing}"


def test_every_design_setting_has_a_description() -> None:
    found = reference.design_settings()
    assert {"semantic", "seem", "anchormem", "graphmem"} <= {d.name for d in found}
    missing = [
        f"{d.name}.{name}"
        for d in found
        for name, info in d.settings.model_fields.items()
        if not info.description
    ]
    assert not missing, f"describe these design settings: {missing}"


def test_the_environment_names_are_the_ones_pydantic_settings_reads() -> None:
    source = EnvSettingsSource(Settings)
    for name, info in Settings.model_fields.items():
        # validate_by_name adds the prefixed field name, which an alias may name already
        read = list(dict.fromkeys(env for _, env, _ in source._extract_field_info(info, name)))
        assert [v.lower() for v in reference.env_names(Settings, name)] == read


def test_every_visible_command_and_option_is_on_the_page() -> None:
    page = reference.render_cli()
    for ctx in reference._contexts():
        assert f"\n## {ctx.command_path}\n" in page
        for param in ctx.command.get_params(ctx):
            if isinstance(param, click.Option) and not param.hidden:
                assert all(f"`{opt}`" in page for opt in param.opts), param.opts


def test_no_machine_specific_value_is_rendered() -> None:
    home = str(Path.home())
    for render in reference.PAGES.values():
        text = render()
        assert home not in text or home == "/"


def test_the_pages_do_not_depend_on_this_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    before = {page: render() for page, render in reference.PAGES.items()}
    for name, value in {
        "GRAPHMEM_HOME": "/elsewhere",
        "GRAPHMEM_SPACE": "someone",
        "GRAPHMEM_API_PORT": "9999",
        "GRAPHMEM_SEEM_RPE_FACTOR": "3.0",
        "COLUMNS": "40",
    }.items():
        monkeypatch.setenv(name, value)
    assert {page: render() for page, render in reference.PAGES.items()} == before
