"""`graphmem serve` and `graphmem mcp` under hostile clients (issue 62), as real processes:
blank --spaces refused, a lax token file refused, the Host header and the bearer scheme
over a real uvicorn, X-Forwarded-For ignored by the rate limit (one bucket for every
loopback address), and a restart on the port of a server killed with SIGKILL."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from graphmem.graph.store import GraphStore

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
from benchmarks.http_load import ROOT, free_port, serve  # noqa: E402

pytestmark = pytest.mark.integration


def _run(
    command: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", **(env or {})}
    main = [sys.executable, "-c", "from graphmem.cli.main import main; main()", command]
    return subprocess.run(
        [*main, *args],
        env=full_env,
        cwd=str(ROOT),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("command", ["serve", "mcp"])
@pytest.mark.parametrize("blank", ["", ",", " , "])
def test_blank_spaces_are_refused_in_one_line(command: str, blank: str) -> None:
    refused = (
        _run(command, "--port", str(free_port()), "--spaces", blank)
        if command == "serve"
        else _run(command, "--spaces", blank)
    )
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.count("\n") == 1 and "names no space" in refused.stderr
    assert refused.stdout == ""


def test_a_lax_token_file_is_refused_before_serving(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / "secrets").mkdir(parents=True)
    token = home / "secrets" / "api-token"
    token.write_text("a")
    token.chmod(0o666)
    (home / "secrets").chmod(0o777)
    refused = _run("serve", "--port", str(free_port()), env={"GRAPHMEM_HOME": str(home)})
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    assert f"{home / 'secrets'} is open to other users" in refused.stderr
    assert f"chmod 700 {home / 'secrets'}" in refused.stderr


def test_host_bearer_and_forwarded_for_over_a_real_server(store: GraphStore) -> None:
    # Four unauthenticated requests a client, refilled at one in 100 s: the fifth is a 429.
    limits = {"GRAPHMEM_API_RATE_BURST": "4", "GRAPHMEM_API_RATE_PER_SECOND": "0.01"}
    with serve("--spaces", "nobody-here", env=limits) as served:  # /health polled: 1 spent
        port = served.base.rsplit(":", 1)[1]
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1:1"):
            refused = httpx.get(f"{served.base}/health", headers={"Host": host})
            assert refused.status_code == 400 and refused.json()["error"] == "bad_host"
        assert httpx.get(f"{served.base}/health", headers={"Host": f"localhost:{port}"}).is_success
        token = served.headers["Authorization"].split(" ", 1)[1]
        lower = httpx.get(f"{served.base}/v1/spaces", headers={"Authorization": f"bearer {token}"})
        assert lower.status_code == 200 and lower.json() == {"spaces": []}
        slash = httpx.get(f"{served.base}/health/", headers=served.headers)
        assert slash.status_code == 404 and "location" not in slash.headers
        # 2 of 4 spent; a forged X-Forwarded-For gets no bucket of its own.
        codes = [
            httpx.get(f"{served.base}/health", headers={"X-Forwarded-For": f"10.0.0.{n}"})
            for n in range(3)
        ]
        assert [c.status_code for c in codes] == [200, 200, 429]
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with other:
            assert other.get(f"{served.base}/health").status_code == 429  # loopback: one client


def _start(port: int) -> subprocess.Popen[str]:
    """`graphmem serve --port PORT` until /health answers (at most 180 s)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    main = [sys.executable, "-c", "from graphmem.cli.main import main; main()", "serve"]
    process = subprocess.Popen(
        [*main, "--port", str(port), "--spaces", "nobody-here"],
        env=env,
        cwd=str(ROOT),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).is_success:
                return process
        except httpx.TransportError:
            time.sleep(0.25)
    process.kill()
    _, said = process.communicate(timeout=20)
    raise AssertionError(f"graphmem serve did not start on {port}: {said}")


def test_serve_restarts_on_the_port_of_a_killed_server(store: GraphStore) -> None:
    port = free_port()
    first = _start(port)
    try:
        with httpx.Client() as client:
            assert client.get(f"http://127.0.0.1:{port}/health").is_success  # kept alive
            first.kill()  # SIGKILL: the kernel closes the server's side of the connection
            first.wait(timeout=20)
        # ... which now sits in TIME_WAIT on the port: the restart must still bind.
    finally:
        first.kill()
        first.wait(timeout=20)
    again = _start(port)
    again.terminate()
    again.wait(timeout=20)
