"""The HTTP API's confinement without a database (issue 62): the Host header, the bearer
scheme's case, one rate-limit bucket for every loopback address, no redirect to a
client-given host, the token file trusted only as this user's private file, blank
``--spaces`` refused and the port check passing where uvicorn's own bind would."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from starlette.testclient import TestClient

from graphmem.cli.serve_cmds import _check_free, served_spaces
from graphmem.config import Settings
from graphmem.errors import ConfigError
from graphmem.http.app import build_app
from graphmem.memory import Memory
from graphmem.server.credentials import api_token
from graphmem.serving import MemoryService

TOKEN = "test-token-0123456789"
BASE = "http://127.0.0.1:8484"  # the scope's server: what the Host header must name


def _client(
    *, client: tuple[str, int] = ("127.0.0.1", 50000), rate: float = 1000.0, burst: int = 1000
) -> TestClient:
    service = MemoryService(Memory(Settings()), ["mine"], False)
    app = build_app(service, token=TOKEN, rate=rate, burst=burst, max_body=4096)
    return TestClient(
        app, base_url=BASE, raise_server_exceptions=False, follow_redirects=False, client=client
    )


def test_the_host_header_must_name_the_bound_address() -> None:
    client = _client()
    for host in ("127.0.0.1:8484", "localhost:8484", "LOCALHOST:8484", "[::1]:8484"):
        assert client.get("/health", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example:8484", "evil.example", "127.0.0.1:9999", "127.0.0.1", ""):
        refused = client.get("/health", headers={"Host": host})
        assert refused.status_code == 400, host
        assert refused.json() == {
            "error": "bad_host",
            "exit_code": 0,
            "message": "the Host header does not name this server",
            "hint": "send the request to http://127.0.0.1:PORT or http://localhost:PORT",
        }


def test_a_trailing_slash_is_a_json_404_not_a_redirect() -> None:
    shown = {"Authorization": f"Bearer {TOKEN}"}  # without it: 401 before any route
    answered = _client().get("/health/", headers=shown)
    assert answered.status_code == 404 and "location" not in answered.headers
    assert answered.json()["error"] == "not_found"


def test_the_bearer_scheme_is_case_insensitive() -> None:
    client = _client()
    for scheme in ("Bearer", "bearer", "BEARER"):
        shown = {"Authorization": f"{scheme} {TOKEN}"}
        assert client.get("/openapi.json", headers=shown).status_code == 200, scheme
    for wrong in (f"Basic {TOKEN}", f"Bearer{TOKEN}", f"Bearer {TOKEN}x", TOKEN):
        assert client.get("/openapi.json", headers={"Authorization": wrong}).status_code == 401


def test_every_loopback_address_shares_one_bucket() -> None:
    first = _client(client=("127.0.0.1", 50000), rate=0.01, burst=2)
    assert [first.get("/health").status_code for _ in range(2)] == [200, 200]
    # The same application behind another loopback peer: the bucket is spent already.
    other = TestClient(first.app, base_url=BASE, client=("127.0.0.2", 50001))
    assert other.get("/health").status_code == 429
    assert TestClient(first.app, base_url=BASE, client=("::1", 1)).get("/health").status_code == 429


def _lax_home(tmp_path: Path, token: str = "a", folder: int = 0o777, file: int = 0o666) -> Settings:
    settings = Settings(home=tmp_path / "home")
    secrets = settings.api_token_file.parent
    secrets.mkdir(parents=True)
    settings.api_token_file.write_text(token)
    os.chmod(settings.api_token_file, file)
    os.chmod(secrets, folder)
    return settings


def test_a_lax_or_short_token_file_is_refused(tmp_path: Path) -> None:
    good = "x" * 32
    settings = _lax_home(tmp_path / "folder", token=good)
    with pytest.raises(ConfigError, match=r"secrets is open to other users \(mode 0777\)") as e:
        api_token(settings)
    assert e.value.hint == f"chmod 700 {settings.api_token_file.parent}"
    settings = _lax_home(tmp_path / "file", token=good, folder=0o700)
    with pytest.raises(ConfigError, match=r"api-token is open to other users \(mode 0666\)") as e:
        api_token(settings)
    assert e.value.hint == f"chmod 600 {settings.api_token_file}"
    settings = _lax_home(tmp_path / "short", folder=0o700, file=0o600)
    with pytest.raises(ConfigError, match="holds a token of 1 characters; at least 16"):
        api_token(settings)
    settings.api_token_file.write_text(good)
    os.chmod(settings.api_token_file, 0o400)  # read-only for its owner is private too
    assert api_token(settings) == good


def test_a_symlinked_or_foreign_token_file_is_refused(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    settings.api_token_file.parent.mkdir(parents=True, mode=0o700)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("y" * 32)
    elsewhere.chmod(0o600)
    settings.api_token_file.symlink_to(elsewhere)
    with pytest.raises(ConfigError, match="api-token is a symlink") as e:
        api_token(settings)
    assert e.value.hint == f"rm {settings.api_token_file}; the next start makes a new token"
    settings.api_token_file.unlink()
    settings.api_token_file.symlink_to(tmp_path / "missing")  # dangling: not created through
    with pytest.raises(ConfigError, match="is a symlink"):
        api_token(settings)
    assert not (tmp_path / "missing").exists()
    if os.getuid() != 0:
        return  # only root can give a file to another user
    settings.api_token_file.unlink()
    assert len(api_token(settings)) >= 16
    os.chown(settings.api_token_file, 4242, -1)
    with pytest.raises(ConfigError, match="belongs to user id 4242"):
        api_token(settings)


@pytest.mark.parametrize("blank", ["", ",", " , ", " "])
def test_blank_spaces_are_refused(blank: str) -> None:
    with pytest.raises(ConfigError, match="names no space"):
        served_spaces(blank)
    assert served_spaces(None) == [] and served_spaces(" a, ,b ") == ["a", "b"]


def test_the_port_check_passes_a_port_with_connections_in_time_wait() -> None:
    with socket.socket() as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = listener.accept()
        accepted.close()  # the server's side closes first: its port sits in TIME_WAIT
        time.sleep(0.1)
        client.close()
    time.sleep(0.1)
    _check_free(port)  # uvicorn (SO_REUSEADDR) would bind now; so must the check
