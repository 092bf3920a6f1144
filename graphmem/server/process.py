"""Start, stop and inspect the local Neo4j process (the real CommunityEntryPoint, no Docker)."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from graphmem.browser import allowed_guide_hosts
from graphmem.config import Settings
from graphmem.errors import ServerError
from graphmem.graph.store import bolt_ready
from graphmem.server.credentials import create_password, read_password
from graphmem.server.permissions import UMASK, restrict_tree
from graphmem.server.runtime import Runtime, fetch_runtime

# The server keeps at most this much of its transaction logs (the newest).
TX_LOG_RETENTION = "1G size"

_ENTRY = "org.neo4j.server.CommunityEntryPoint"
_ADMIN = "org.neo4j.cli.AdminTool"
# The JVM options Neo4j's own start script passes; without the add-opens the page cache
# falls back to a slower mode.
_JVM_OPTS = [
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
]


@dataclass(frozen=True)
class Layout:
    """Per-user folders of the local server, all under ``settings.home``."""

    root: Path

    @property
    def conf(self) -> Path:
        return self.root / "conf"

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def logs(self) -> Path:
        return self.root / "logs"

    @property
    def run(self) -> Path:
        return self.root / "run"

    @property
    def pid_file(self) -> Path:
        return self.run / "graphmem-neo4j.pid"

    @property
    def console_log(self) -> Path:
        return self.logs / "console.log"

    @property
    def start_lock(self) -> Path:
        return self.run / "start.lock"


def layout(settings: Settings) -> Layout:
    return Layout(settings.run_dir)


def render_conf(settings: Settings, lay: Layout, runtime: Runtime) -> str:
    return "\n".join(
        [
            "# written by graphmem on every start; edit GRAPHMEM_* settings instead",
            "server.default_listen_address=127.0.0.1",
            "server.default_advertised_address=127.0.0.1",
            f"server.bolt.listen_address=127.0.0.1:{settings.bolt_port}",
            f"server.http.listen_address=127.0.0.1:{settings.http_port}",
            "server.https.enabled=false",
            "dbms.security.auth_enabled=true",
            f"server.memory.heap.initial_size={settings.heap_size}",
            f"server.memory.heap.max_size={settings.heap_size}",
            f"server.memory.pagecache.size={settings.pagecache_size}",
            f"db.memory.transaction.max={settings.transaction_memory_max}",
            f"server.directories.data={lay.data}",
            f"server.directories.logs={lay.logs}",
            f"server.directories.run={lay.run}",
            f"server.directories.plugins={runtime.plugins}",
            f"server.directories.import={lay.root / 'import'}",
            "dbms.security.procedures.unrestricted=gds.*",
            "dbms.security.procedures.allowlist=gds.*",
            "dbms.usage_report.enabled=false",
            f"browser.remote_content_hostname_whitelist={allowed_guide_hosts(settings)}",
            # Transaction logs serve backups and recovery only; a day of them grew to 12 GB
            # under evaluation runs (a LongMemEval haystack writes about 40,000 records).
            f"db.tx_log.rotation.retention_policy={TX_LOG_RETENTION}",
            "",
        ]
    )


def _ensure_password(settings: Settings, lay: Layout, runtime: Runtime) -> None:
    auth_ini = lay.data / "dbms" / "auth.ini"
    password = read_password(settings)
    if password is None:
        if auth_ini.exists():
            raise ServerError(
                f"the database in {lay.data} has a password but {settings.password_file} is gone",
                hint=f"restore the file, or delete {lay.data} to start from an empty database",
            )
        password = create_password(settings)
    if not auth_ini.exists():
        _set_initial_password(settings, lay, runtime, password)


def _set_initial_password(settings: Settings, lay: Layout, runtime: Runtime, pw: str) -> None:
    """neo4j-admin reads the password from an argument file (``@file``, expanded by its
    command-line parser), so it never shows on a command line that ``ps`` lists."""
    fd, name = tempfile.mkstemp(prefix="initial-password-", dir=lay.run)  # mode 0600
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write('"' + pw.replace("\\", "\\\\").replace('"', '\\"') + '"\n')
        # `--`: a generated password starts with "-" once in 64 (token_urlsafe), which the
        # command-line parser would take for an option ("Missing required parameter").
        _admin(settings, lay, runtime, ["dbms", "set-initial-password", "--", f"@{name}"])
    finally:
        Path(name).unlink(missing_ok=True)


def _admin(settings: Settings, lay: Layout, runtime: Runtime, args: list[str]) -> None:
    env = {**os.environ, "NEO4J_HOME": str(lay.root), "NEO4J_CONF": str(lay.conf)}
    cmd = [settings.java, "-cp", runtime.classpath, _ADMIN, *args]
    proc = subprocess.run(
        cmd, env=env, capture_output=True, text=True, timeout=300, check=False, umask=UMASK
    )
    if proc.returncode != 0:
        raise ServerError(f"neo4j-admin {args[0]} {args[1]} failed:\n{proc.stderr[-2000:]}")


def _ours(pid: int, lay: Layout) -> bool:
    """Whether ``pid`` is a live Neo4j serving *this* home: a stale pid file may name a
    recycled pid, or another user's or another home's Neo4j, which must never be signalled."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False  # another user's process is never ours
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not cmdline.exists():
        return True  # no /proc (not Linux): the signal probe is all there is
    try:
        args = cmdline.read_bytes().split(b"\0")
    except OSError:
        return False
    return _ENTRY.encode() in args and f"--home-dir={lay.root}".encode() in args


def running_pid(settings: Settings) -> int | None:
    """The pid of our server, or None; a stale pid file is removed on the way."""
    lay = layout(settings)
    if not lay.pid_file.is_file():
        return None
    try:
        pid = int(lay.pid_file.read_text().strip())
    except ValueError:
        pid = -1
    if pid > 0 and _ours(pid, lay):
        return pid
    lay.pid_file.unlink(missing_ok=True)
    return None


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def log_tail(settings: Settings, lines: int = 40) -> str:
    lay = layout(settings)
    chunks = []
    for path in (lay.console_log, lay.logs / "debug.log"):
        if path.is_file():
            text = path.read_text(errors="replace").splitlines()[-lines:]
            chunks.append(f"--- {path} ---\n" + "\n".join(text))
    return "\n".join(chunks) or "(no log written yet)"


def _check_ports(settings: Settings) -> None:
    for port in (settings.bolt_port, settings.http_port):
        if port_open(port):
            raise ServerError(
                f"port {port} on 127.0.0.1 is taken by another process",
                hint="stop it, or set GRAPHMEM_BOLT_PORT / GRAPHMEM_HTTP_PORT",
            )


def _spawn(settings: Settings, lay: Layout, runtime: Runtime) -> subprocess.Popen[bytes]:
    cmd = [
        settings.java,
        f"-Xms{settings.heap_size}",
        f"-Xmx{settings.heap_size}",
        *_JVM_OPTS,
        "-cp",
        runtime.classpath,
        _ENTRY,
        f"--home-dir={lay.root}",
        f"--config-dir={lay.conf}",
        "--console-mode=true",
    ]
    # Created here by the CLI (whose umask may be 022), not by Neo4j: 0600 explicitly.
    log = os.fdopen(os.open(lay.console_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600), "ab")
    try:
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # survives the CLI that started it
            umask=UMASK,  # store files, logs and auth.ini readable by this user only
            env={**os.environ, "NEO4J_HOME": str(lay.root), "NEO4J_CONF": str(lay.conf)},
        )
    except FileNotFoundError:
        raise ServerError(
            f"java not found ({settings.java!r})",
            hint="install a JDK 17 or 21 (apt-get install -y openjdk-17-jdk-headless)",
        ) from None
    finally:
        log.close()
    fd = os.open(lay.pid_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as pid_out:
        pid_out.write(str(proc.pid))
    return proc


@contextmanager
def _start_lock(lay: Layout) -> Iterator[None]:
    """One start at a time per home: a second ``server start`` waits for the first, then
    finds the server running and ready, instead of racing it."""
    lay.run.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(lay.start_lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def start(settings: Settings) -> dict[str, object]:
    """Start the local server and wait until Bolt answers. A no-op when it already runs
    (it still returns only once Bolt answers)."""
    if settings.external:
        return {"started": False, "external": True, "uri": settings.neo4j_uri}
    lay = layout(settings)
    settings.home.mkdir(parents=True, exist_ok=True, mode=0o700)
    with _start_lock(lay):
        pid = running_pid(settings)
        if pid is not None:
            _wait_ready(settings, None, time.monotonic())
            restrict_tree(settings.home)
            return {"started": False, "pid": pid, "already_running": True}
        runtime, fetch_s = fetch_runtime(settings)
        for folder in (lay.conf, lay.data, lay.logs, lay.run, lay.root / "import"):
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        (lay.conf / "neo4j.conf").write_text(render_conf(settings, lay, runtime))
        restrict_tree(settings.home)
        _check_ports(settings)
        _ensure_password(settings, lay, runtime)
        began = time.monotonic()
        proc = _spawn(settings, lay, runtime)
        _wait_ready(settings, proc, began)
        restrict_tree(settings.home)  # whatever Neo4j created before its umask applied
    return {
        "started": True,
        "pid": proc.pid,
        "fetch_seconds": round(fetch_s, 1),
        "ready_seconds": round(time.monotonic() - began, 1),
    }


def _wait_ready(settings: Settings, proc: subprocess.Popen[bytes] | None, began: float) -> None:
    """Until Bolt answers: ``proc`` is the server we just spawned, None for one already
    running (started by another process)."""
    while time.monotonic() - began < settings.start_timeout_s:
        if proc is not None and proc.poll() is not None:
            layout(settings).pid_file.unlink(missing_ok=True)
            raise ServerError(f"Neo4j exited during start-up:\n{log_tail(settings)}")
        if port_open(settings.bolt_port) and bolt_ready(settings):
            return
        time.sleep(0.5)
    # A server still alive is left running: after an unclean stop a large store can spend
    # minutes in recovery, and stopping it there would only make the next start recover
    # again from the beginning.
    raise ServerError(
        f"Neo4j did not answer on Bolt within {settings.start_timeout_s:g} s; it is left "
        f"running:\n{log_tail(settings)}",
        hint="run `graphmem server start` again to keep waiting (raise "
        "GRAPHMEM_START_TIMEOUT_S to wait longer), see `graphmem server logs`, or "
        "`graphmem server stop`",
    )


def stop(settings: Settings, timeout_s: float = 60.0) -> bool:
    """Stop the local server cleanly (SIGTERM, then SIGKILL after ``timeout_s``)."""
    pid = running_pid(settings)
    if pid is None:
        return False
    lay = layout(settings)
    os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and _ours(pid, lay):
        time.sleep(0.3)
    if _ours(pid, lay):
        os.killpg(pid, signal.SIGKILL)
    layout(settings).pid_file.unlink(missing_ok=True)
    return True


def rss_bytes(pid: int) -> int | None:
    status = Path(f"/proc/{pid}/status")
    if not status.is_file():
        return None
    for line in status.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return None


def copy_database(settings: Settings, direction: Literal["dump", "load"], folder: Path) -> Path:
    """``dump``: the database's live records into ``folder`` (``<database>.dump``; deleted
    records and old transaction logs are not in it); ``load``: the store replaced by the
    dump in ``folder``. Neo4j's own ``neo4j-admin database dump|load``, run on a stopped
    local server (docs/privacy.md)."""
    if settings.external:
        raise ServerError("NEO4J_URI is set: dump and load that server with its own tools")
    if running_pid(settings) is not None:
        raise ServerError("the server is running", hint="graphmem server stop, then again")
    lay = layout(settings)
    runtime, _ = fetch_runtime(settings)
    if direction == "load" and not (folder / f"{settings.neo4j_database}.dump").is_file():
        raise ServerError(f"no {settings.neo4j_database}.dump in {folder}")
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    where = f"--to-path={folder}" if direction == "dump" else f"--from-path={folder}"
    args = ["database", direction, settings.neo4j_database, where, "--overwrite-destination"]
    _admin(settings, lay, runtime, args)
    restrict_tree(folder)
    return folder / f"{settings.neo4j_database}.dump"
