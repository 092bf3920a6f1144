"""The cookbook's headers and its generated documentation (no database)."""

from __future__ import annotations

from pathlib import Path

from graphmem.graph.cookbook import recipes, render_markdown
from tests.paths import ROOT

DOC = ROOT / "docs" / "cookbook.md"


def test_docs_cookbook_is_generated_from_the_current_files() -> None:
    assert render_markdown() in DOC.read_text(encoding="utf-8"), (
        "docs/cookbook.md is stale: run `python -m graphmem.graph.cookbook`"
    )


def test_every_example_names_exactly_the_parameters_besides_space() -> None:
    for found in recipes():
        assert set(found.example) == set(found.params) - {"space"}, found.name


def test_queries_for_designs_in_progress_say_which_label_they_need() -> None:
    needs = {r.name: r.requires for r in recipes()}
    assert needs["analyst.character_scenes"] == ["Scene"]
    assert needs["analyst.insights"] == ["Insight"]
    assert needs["analyst.narratives"] == ["Narrative"]


def test_local_server_lets_the_browser_load_the_guide(tmp_path: Path) -> None:
    from graphmem.config import Settings
    from graphmem.server import process
    from graphmem.server.runtime import Runtime

    # http_port given: the guide port follows it (+2), whatever GRAPHMEM_HTTP_PORT says.
    settings = Settings(home=tmp_path / "home", cache_dir=tmp_path / "cache", http_port=7474)
    conf = process.render_conf(settings, process.layout(settings), Runtime(tmp_path / "rt"))
    line = "browser.remote_content_hostname_whitelist=guides.neo4j.com,localhost,127.0.0.1,"
    assert f"{line}http://localhost:7476" in conf
