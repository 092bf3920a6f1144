"""`graphmem llm serve` in the foreground: a SIGTERM to graphmem stops the model server too
(before, the server was left running and held the port), and the server runs unbuffered."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

CHILD = textwrap.dedent(
    """
    import os, pathlib, signal, sys, time
    folder = pathlib.Path(sys.argv[1])
    (folder / "env").write_text(os.environ.get("PYTHONUNBUFFERED", ""))
    def stop(*_):
        (folder / "stopped").write_text("yes")
        sys.exit(0)
    signal.signal(signal.SIGTERM, stop)
    (folder / "pid").write_text(str(os.getpid()))
    time.sleep(60)
    """
)


def _wait_for(path: Path, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.05)


def test_sigterm_to_graphmem_stops_the_server_it_started(tmp_path: Path) -> None:
    child = tmp_path / "child.py"
    child.write_text(CHILD)
    outer = (
        "import sys; from graphmem.llm.serve import run_foreground; "
        f"sys.exit(run_foreground([sys.executable, {str(child)!r}, {str(tmp_path)!r}]))"
    )
    graphmem = subprocess.Popen([sys.executable, "-c", outer])
    _wait_for(tmp_path / "pid")
    server = int((tmp_path / "pid").read_text())
    graphmem.send_signal(signal.SIGTERM)
    assert graphmem.wait(timeout=20) == 0  # the server's own exit status, passed on
    assert (tmp_path / "stopped").read_text() == "yes"  # it got the SIGTERM and ended
    assert (tmp_path / "env").read_text() == "1"  # PYTHONUNBUFFERED
    try:
        os.kill(server, 0)
    except ProcessLookupError:
        return
    raise AssertionError(f"the server (pid {server}) is still running")
