"""Issue 36 item 8: settings that used to be accepted silently are a clean error naming
the variable (exit 2); a LoCoMo file without a turn exits 3 like an empty JSONL; a lost
server's hint says what rerunning *this* command does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from neo4j.exceptions import ServiceUnavailable, SessionExpired, TransientError
from pydantic import ValidationError
from pydantic_settings import SettingsConfigDict

from graphmem.cli.common import AppContext, handle_errors
from graphmem.cli.main import cli
from graphmem.config import Settings
from graphmem.errors import ConfigError, ServerLostError
from graphmem.graph.store import driver_error
from graphmem.plugin.configure import DesignConfigs
from graphmem.plugin.design import Design, DesignSettings
from graphmem.plugin.registry import register, unregister

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
NOWHERE = "bolt://127.0.0.1:1"  # a command that got past the check would exit 4 here


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    script = "from graphmem.cli.main import main; main()"
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "NEO4J_URI": NOWHERE, **env},
        timeout=120,
    )


# Every numeric setting with a natural range, just outside it.
OUT_OF_RANGE = {
    "GRAPHMEM_EMBEDDING_THREADS": "-3",
    "GRAPHMEM_EMBEDDING_WORKERS": "0",
    "GRAPHMEM_EMBEDDING_PASSAGE_TOKENS": "8",
    "GRAPHMEM_VECTOR_CACHE_MB": "-1",
    "GRAPHMEM_ANSWER_SENTENCES": "-1",
    "GRAPHMEM_LLM_TIMEOUT_S": "-1",
    "GRAPHMEM_BOLT_PORT": "0",
    "GRAPHMEM_HTTP_PORT": "65536",
    "GRAPHMEM_START_TIMEOUT_S": "0",
    "GRAPHMEM_MAX_PROJECTIONS": "0",
    "GRAPHMEM_EMBEDDING_BATCH_SIZE": "0",
    "GRAPHMEM_INGEST_BATCH_TURNS": "0",
    "GRAPHMEM_BLAS_THREADS": "-1",
    "GRAPHMEM_SNAPSHOT_RECHECK_SECONDS": "-0.5",
    "GRAPHMEM_EMBEDDING_DIM": "0",
    "GRAPHMEM_LLM_MAX_RETRIES": "-1",
    "GRAPHMEM_LLM_CONCURRENCY": "0",
    "GRAPHMEM_LLM_MAX_TOKENS": "15",
    "GRAPHMEM_LLM_MAX_REPAIRS": "-1",
    "GRAPHMEM_MAX_FILE_BYTES": "0",
    "GRAPHMEM_MAX_RECORD_BYTES": "-5",
    "GRAPHMEM_IMPORT_SESSION_GAP_MINUTES": "0",
    "GRAPHMEM_HEAP_SIZE": "-2g",
    "GRAPHMEM_PAGECACHE_SIZE": "lots",
    "GRAPHMEM_LLM_BASE_URL": "notaurl",
    "GRAPHMEM_API_PORT": "70000",
    "GRAPHMEM_API_MAX_BODY_BYTES": "100",
    "GRAPHMEM_API_RATE_PER_SECOND": "0",
    "GRAPHMEM_API_RATE_BURST": "0",
    "GRAPHMEM_API_MAX_WRITE_MESSAGES": "0",
    "GRAPHMEM_API_MAX_WAITING": "1001",
    "GRAPHMEM_API_HEADER_TIMEOUT_SECONDS": "0",
    "GRAPHMEM_API_BODY_TIMEOUT_SECONDS": "3601",
    "GRAPHMEM_API_MAX_CONNECTIONS": "0",
    "GRAPHMEM_SESSION_IDLE_MINUTES": "-1",
    "GRAPHMEM_CONTEXT_MEMORY_CITES": "-1",
}


@pytest.mark.parametrize(("variable", "value"), sorted(OUT_OF_RANGE.items()))
def test_a_setting_out_of_its_range_names_its_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as caught:
        AppContext()  # what every command builds first
    assert f"{variable}:" in str(caught.value) and caught.value.exit_code == 2


def test_every_numeric_setting_has_a_range() -> None:
    """A new number without bounds is caught here (then add it to OUT_OF_RANGE)."""
    unbounded = []
    for name, info in Settings.model_fields.items():
        if info.annotation in (int, float):
            bounds = [m for m in info.metadata if hasattr(m, "ge") or hasattr(m, "gt")]
            if not bounds:
                unbounded.append(name)
            assert f"GRAPHMEM_{name.upper()}" in OUT_OF_RANGE, name
    assert unbounded == []


def test_values_at_the_edge_of_their_range_are_accepted() -> None:
    edge = Settings(
        blas_threads=0,
        snapshot_recheck_seconds=0.0,
        llm_max_retries=0,
        llm_max_repairs=0,
        bolt_port=65535,
        heap_size="512m",
        pagecache_size="1048576",
        llm_base_url="https://llm.example.invalid:8443/v1",
    )
    assert edge.llm_base_url == "https://llm.example.invalid:8443/v1"


@pytest.mark.parametrize(
    "url", ["notaurl", "127.0.0.1:8765/v1", "ftp://host/v1", "http://", "http://host:99999"]
)
def test_an_llm_address_that_is_not_http_is_refused(url: str) -> None:
    with pytest.raises(ValidationError, match="is not an http"):
        Settings(llm_base_url=url)


def test_an_empty_llm_address_is_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_LLM_BASE_URL", "")
    assert Settings().llm_base_url is None


def test_cli_bad_settings_exit_2_before_anything_runs() -> None:
    for variable, value in (
        ("GRAPHMEM_EMBEDDING_THREADS", "-3"),
        ("GRAPHMEM_LLM_TIMEOUT_S", "-1"),
        ("GRAPHMEM_LLM_BASE_URL", "notaurl"),
    ):
        run = _cli("query", "where?", "--space", "inputs-never", env={variable: value})
        assert run.returncode == 2, run.stderr
        assert variable in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize("spec", ["", " ", ",", "paper,", "seem="])
def test_an_empty_preset_is_a_usage_error(spec: str) -> None:
    result = CliRunner().invoke(cli, ["query", "q", "--space", "s", "--preset", spec])
    assert result.exit_code == 2
    assert "Invalid value for '--preset'" in result.output


# --- GRAPHMEM_<DESIGN>_<X> naming no setting ------------------------------------------------


class _PlusSettings(DesignSettings):
    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_SEEM_PLUS_")

    depth: int = 1


@pytest.fixture
def seem_plus() -> Iterator[None]:
    """A design whose prefix extends another's (``seem`` and ``seem_plus``)."""
    register(Design(name="seem_plus", title="t", summary="s", settings=_PlusSettings))
    yield
    unregister("seem_plus")


def test_an_unknown_design_variable_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_SEEM_UNKNOWNSETTING", "1")
    with pytest.raises(ConfigError) as caught:
        DesignConfigs().check()
    assert "GRAPHMEM_SEEM_UNKNOWNSETTING names no setting of design seem" in str(caught.value)
    assert "graphmem designs seem" in (caught.value.hint or "")


def test_a_design_without_settings_has_no_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRAPHMEM_BASELINES_K", "3")
    with pytest.raises(ConfigError, match="GRAPHMEM_BASELINES_K names no setting"):
        DesignConfigs().check()


def test_settings_of_designs_and_of_the_core_are_not_mistaken(
    monkeypatch: pytest.MonkeyPatch, seem_plus: None
) -> None:
    for variable, value in (
        ("GRAPHMEM_SEEM_RPE_FACTOR", "2.0"),
        ("graphmem_seem_rpe_top_k", "3"),  # read case-insensitively, as resolved
        ("GRAPHMEM_SEEM_PLUS_DEPTH", "2"),  # seem_plus's, under seem's prefix too
        ("GRAPHMEM_LLM_MODEL", "m"),
        ("GRAPHMEM_GRAPHMEM_FUSION", "rrf"),
        ("GRAPHMEM_SPACY_TORCH", "false"),
        ("GRAPHMEM_TEST_LLM_BASE_URL", "http://127.0.0.1:1"),  # no design is named test
    ):
        monkeypatch.setenv(variable, value)
    DesignConfigs().check()
    monkeypatch.setenv("GRAPHMEM_SEEM_PLUS_WIDTH", "2")
    with pytest.raises(
        ConfigError, match="GRAPHMEM_SEEM_PLUS_WIDTH names no setting of design seem_plus"
    ):
        DesignConfigs().check()


def test_cli_unknown_design_variable_exits_2() -> None:
    run = _cli("designs", env={"GRAPHMEM_SEEM_UNKNOWNSETTING": "1"})
    assert run.returncode == 2, run.stderr
    assert "GRAPHMEM_SEEM_UNKNOWNSETTING" in run.stderr and "Traceback" not in run.stderr


# --- a LoCoMo file without a turn -----------------------------------------------------------


def test_cli_locomo_whose_only_session_is_empty_exits_3(tmp_path: Path) -> None:
    sample = {
        "sample_id": "empty",
        "conversation": {
            "speaker_a": "Ada",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [],
        },
        "qa": [],
    }
    path = tmp_path / "empty.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    empty_jsonl = tmp_path / "empty.jsonl"
    empty_jsonl.write_text("\n", encoding="utf-8")
    runs = [
        _cli("ingest", str(given), "--space", "inputs-never", env={})
        for given in (path, empty_jsonl)
    ]
    assert [run.returncode for run in runs] == [3, 3], [run.stderr for run in runs]
    assert "record sample empty, field 'conversation': holds no turns" in runs[0].stderr


# --- the hint after a lost server -----------------------------------------------------------


def _failing_group(error: Exception) -> click.Group:
    @click.group()
    def group() -> None:
        pass

    for name in ("query", "ingest", "forget", "server"):

        @group.command(name)
        @handle_errors
        def command() -> None:
            raise driver_error(error, "bolt://127.0.0.1:7687")

    return group


@pytest.mark.parametrize(
    "error", [ServiceUnavailable("gone"), SessionExpired("gone"), TransientError("busy")]
)
def test_a_lost_server_hint_fits_the_command(error: Exception) -> None:
    group = _failing_group(error)
    outputs = {}
    for name in ("query", "ingest", "forget", "server"):
        result = CliRunner().invoke(group, [name], prog_name="graphmem")
        assert result.exit_code == 4
        outputs[name] = result.output
    assert "query only reads" in outputs["query"] and "ingest" not in outputs["query"]
    assert "ingest resumes where it stopped" in outputs["ingest"]
    assert "forget deletes what is left" in outputs["forget"]
    # a command without its own words keeps the store's, which covers both cases
    assert "a read changes nothing, an ingest resumes" in outputs["server"]
    assert isinstance(driver_error(error, "x"), ServerLostError)


def test_a_field_whose_variable_has_another_name_is_set_by_its_name_in_python() -> None:
    from pydantic import SecretStr

    chosen = Settings(llm_api_key=SecretStr("k"), config_file=Path("/tmp/graphmem-x.toml"))
    assert chosen.llm_api_key is not None and chosen.llm_api_key.get_secret_value() == "k"
    assert chosen.config_file == Path("/tmp/graphmem-x.toml")
