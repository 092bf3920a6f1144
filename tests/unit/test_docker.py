"""No Docker engine runs on the build machines: these checks validate docker/ statically
(the compose file's services, loopback ports, GDS plugin, auth from the environment, health
gate; the Dockerfile's base, copied paths, install and non-root user)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
DOCKER = ROOT / "docker"


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DOCKER / "docker-compose.yml").read_text())
    return data


def test_neo4j_service_matches_the_local_launcher() -> None:
    neo4j = _compose()["services"]["neo4j"]
    assert neo4j["image"].startswith("neo4j:5.26")
    assert neo4j["ports"] and all(p.startswith("127.0.0.1:") for p in neo4j["ports"])
    assert {p.split(":")[-1] for p in neo4j["ports"]} == {"7474", "7687"}
    env = neo4j["environment"]
    assert "graph-data-science" in env["NEO4J_PLUGINS"]
    assert env["NEO4J_dbms_security_procedures_unrestricted"] == "gds.*"
    assert re.fullmatch(r"neo4j/\$\{NEO4J_PASSWORD:\?[^}]+\}", env["NEO4J_AUTH"])
    assert "http://localhost:7476" in env["NEO4J_browser_remote__content__hostname__whitelist"]
    assert neo4j["healthcheck"]["test"]


def test_graphmem_service_waits_for_a_healthy_neo4j_and_uses_env_auth() -> None:
    compose = _compose()
    app = compose["services"]["graphmem"]
    assert app["depends_on"]["neo4j"]["condition"] == "service_healthy"
    assert app["environment"]["NEO4J_URI"] == "bolt://neo4j:7687"
    assert app["environment"]["NEO4J_PASSWORD"] == "${NEO4J_PASSWORD}"
    context = (DOCKER / app["build"]["context"]).resolve()
    assert context == ROOT and (context / app["build"]["dockerfile"]).is_file()
    for volume in app.get("volumes", []):
        assert (DOCKER / volume.split(":")[0]).resolve().exists(), volume
    assert set(compose["volumes"]) == {"neo4j-data", "neo4j-logs"}


def test_dockerfile_copies_what_the_wheel_needs_and_runs_as_a_user() -> None:
    lines = [ln.strip() for ln in (DOCKER / "Dockerfile").read_text().splitlines()]
    assert lines[[ln.startswith("FROM") for ln in lines].index(True)].startswith("FROM python:3.11")
    copied = {part for ln in lines if ln.startswith("COPY") for part in ln.split()[1:-1]}
    assert {"pyproject.toml", "README.md", "graphmem", "cypher", "schema"} <= copied
    assert all((ROOT / path).exists() for path in copied)
    assert any(ln.startswith("RUN pip install") and "[mcp]" in ln for ln in lines)
    user = [ln for ln in lines if ln.startswith("USER")]
    assert user and user[-1] != "USER root"
    assert 'ENTRYPOINT ["graphmem"]' in lines
