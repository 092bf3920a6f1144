"""``GraphStore``: the one owner of the Neo4j driver and of transactions.

Every statement comes from the catalog by name; values always travel as parameters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import (
    AuthError,
    ConfigurationError,
    DriverError,
    IncompleteCommit,
    Neo4jError,
    ServiceUnavailable,
    SessionExpired,
    TransientError,
)
from neo4j.graph import Node, Path, Relationship

from graphmem.config import Settings
from graphmem.errors import CatalogError, ConfigError, GraphmemError, ServerError, ServerLostError
from graphmem.graph.catalog import Statement, statement
from graphmem.server.credentials import read_password

T = TypeVar("T")

_GRAPH_TYPES = (Node, Relationship, Path)


def _row(record: neo4j.Record) -> dict[str, Any]:
    """A record as a dict. ``Record.data()`` turns nodes, relationships and paths into
    dicts, but walks every value in Python to find them (1.4 s for 1,600 embeddings of 384
    floats; a third of a 167-turn full-text search's time for its maps of scalars), so it is
    kept for the values that hold one somewhere."""
    out = dict(zip(record.keys(), record.values(), strict=True))
    for key, value in out.items():
        if _holds_graph(value):
            out[key] = record.data(key)[key]
    return out


_NESTED = (*_GRAPH_TYPES, dict, list)


def _holds_graph(value: object) -> bool:
    """Whether a node, relationship or path is inside ``value`` (maps and lists searched;
    a list whose first element is a scalar is taken to hold scalars, as Cypher's lists of
    numbers and strings do)."""
    if isinstance(value, _GRAPH_TYPES):
        return True
    if isinstance(value, dict):
        return any(_holds_graph(v) for v in value.values() if isinstance(v, _NESTED))
    if isinstance(value, list) and value and isinstance(value[0], _NESTED):
        return any(_holds_graph(v) for v in value)
    return False


@dataclass(frozen=True)
class Connection:
    uri: str
    user: str
    password: str
    database: str


def connection(settings: Settings) -> Connection:
    """``NEO4J_*`` when set, else the local server started by ``graphmem server start``."""
    if settings.external:
        assert settings.neo4j_uri is not None
        password = settings.neo4j_password.get_secret_value() if settings.neo4j_password else ""
        return Connection(
            settings.neo4j_uri, settings.neo4j_user, password, settings.neo4j_database
        )
    local_password = read_password(settings)
    if local_password is None:
        raise ServerError(
            "no local Neo4j has been set up yet",
            hint="run `graphmem server start`, or set NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD",
        )
    return Connection(f"bolt://127.0.0.1:{settings.bolt_port}", "neo4j", local_password, "neo4j")


_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
# Said by the Python API; each CLI command says what a rerun of it does (cli/common.py).
_RERUN = "run it again: a read changes nothing, an ingest resumes where it stopped"


def open_driver(conn: Connection) -> neo4j.Driver:
    """A driver for ``conn``; a malformed URI is a ConfigError, not a driver traceback."""
    parts = urlsplit(conn.uri)
    try:
        port = parts.port
    except ValueError:
        port = -1
    if parts.scheme not in _SCHEMES or not parts.hostname or port == -1:
        raise ConfigError(
            f"NEO4J_URI {conn.uri!r} is not a Neo4j address",
            hint="use bolt://host:7687 or neo4j://host:7687 (also +s / +ssc for TLS)",
        )
    try:
        return GraphDatabase.driver(
            conn.uri,
            auth=(conn.user, conn.password),
            # "label does not exist" warnings on a fresh space are noise, not news
            notifications_min_severity="OFF",
        )
    except (ConfigurationError, ValueError) as exc:
        raise ConfigError(f"NEO4J_URI {conn.uri!r} is not usable: {exc}") from None


# Refusals that depend on the statement alone, so the same statement fails the same way
# again: not exit 4, whose errors a rerun can get past. Other client errors stay exit 4: a
# procedure can fail for the database's state (another process dropped a GDS graph).
_PERMANENT_CODES = ("Neo.ClientError.Statement.",)
_PERMANENT_CAUSES = ("TooManyClauses", "TooManyNestedClauses")


def _permanent(exc: Neo4jError) -> bool:
    code, message = exc.code or "", exc.message or ""
    return code.startswith(_PERMANENT_CODES) or (
        code.startswith("Neo.ClientError.") and any(c in message for c in _PERMANENT_CAUSES)
    )


def driver_error(exc: Exception, uri: str) -> GraphmemError:
    """One clean error for a driver or server failure: a ServerError (exit code 4), or a
    GraphmemError (exit code 1) for a statement the server refuses whatever its state."""
    if isinstance(exc, AuthError) or (
        isinstance(exc, Neo4jError) and (exc.code or "").startswith("Neo.ClientError.Security")
    ):
        return ServerError(
            f"Neo4j at {uri} refused the credentials: {getattr(exc, 'message', None) or exc}",
            hint="check NEO4J_USER/NEO4J_PASSWORD (after repeated failures Neo4j blocks "
            "logins for a few seconds)",
        )
    if isinstance(exc, IncompleteCommit):
        return ServerLostError(
            f"the connection to Neo4j at {uri} dropped while a write was being committed",
            rerun=_RERUN,
        )
    if isinstance(exc, ServiceUnavailable | SessionExpired | OSError):
        return ServerLostError(
            f"lost the connection to Neo4j at {uri} ({type(exc).__name__})",
            check="check `graphmem server status`",
            rerun=_RERUN,
        )
    if isinstance(exc, TransientError):
        return ServerLostError(f"Neo4j stayed busy after retries: {exc.message}", rerun=_RERUN)
    if isinstance(exc, Neo4jError) and _permanent(exc):
        return GraphmemError(
            f"Neo4j refused a statement ({exc.code}): {exc.message}",
            hint="a permanent error, not the server's state: rerunning gives the same error",
        )
    if isinstance(exc, Neo4jError):
        return ServerError(f"Neo4j rejected a statement ({exc.code}): {exc.message}")
    return ServerError(f"Neo4j driver error: {type(exc).__name__}: {exc}")


# What becomes a ServerError at the store's edge. Other Neo4jErrors (a statement the server
# rejects) pass through so callers can react to them (e.g. a GDS graph that already exists);
# the CLI maps whatever is left.
_CONNECTION_ERRORS = (
    AuthError,
    ServiceUnavailable,
    SessionExpired,
    IncompleteCommit,
    TransientError,
    OSError,
)


def _is_connection_error(exc: BaseException) -> bool:
    if isinstance(exc, _CONNECTION_ERRORS):
        return True
    code = getattr(exc, "code", None) or ""
    return isinstance(exc, Neo4jError) and code.startswith("Neo.ClientError.Security")


def bolt_ready(settings: Settings) -> bool:
    conn = connection(settings)
    try:
        with open_driver(conn) as driver:
            driver.verify_connectivity()
        return True
    except (ServiceUnavailable, OSError):
        return False


def _check_params(stmt: Statement, params: dict[str, Any]) -> None:
    missing = stmt.params - params.keys()
    if missing:
        raise CatalogError(f"{stmt.name}: missing parameters {sorted(missing)}")


class Tx:
    """A write transaction handed out by ``GraphStore.transaction``."""

    def __init__(self, tx: neo4j.ManagedTransaction) -> None:
        self._tx = tx

    def run(self, name: str, **params: Any) -> list[dict[str, Any]]:
        stmt = statement(name)
        _check_params(stmt, params)
        if FAULTS.hook is not None:
            FAULTS.hook(name)
        return [_row(record) for record in self._tx.run(stmt.text, params)]


class Faults:
    """A test seam: ``hook(statement)`` runs before every write statement (store writes and
    transaction statements), so tests can crash a process at a chosen point. Nothing in
    graphmem sets it."""

    hook: Callable[[str], None] | None = None


FAULTS = Faults()


class GraphStore:
    """Owns the driver. Constructing one does no I/O; the driver opens on first use."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._driver: neo4j.Driver | None = None
        self._database = settings.neo4j_database if settings.external else "neo4j"
        self._uri = settings.neo4j_uri or f"bolt://127.0.0.1:{settings.bolt_port}"

    @property
    def driver(self) -> neo4j.Driver:
        if self._driver is None:
            conn = connection(self._settings)
            driver = open_driver(conn)
            try:
                driver.verify_connectivity()
            except (ServiceUnavailable, OSError) as exc:
                driver.close()
                raise ServerError(
                    f"Neo4j is not reachable at {conn.uri}",
                    hint="run `graphmem server start` (or check NEO4J_URI)",
                ) from exc
            except (DriverError, Neo4jError) as exc:
                driver.close()
                raise driver_error(exc, conn.uri) from exc
            self._uri = conn.uri
            self._driver = driver
        return self._driver

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Connection, credential and transient failures as one ServerError."""
        try:
            yield
        except Exception as exc:
            if _is_connection_error(exc):
                raise driver_error(exc, self._uri) from exc
            raise

    @property
    def database(self) -> str:
        return self._database

    def close(self) -> None:
        if self._driver is not None:
            self._driver.close()
            self._driver = None

    def __enter__(self) -> GraphStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _execute(self, name: str, params: dict[str, Any], routing: str) -> list[dict[str, Any]]:
        """One statement in its own transaction; the driver retries it on transient errors
        and lost connections (every write is a MERGE, so a retry is safe)."""
        stmt = statement(name)
        _check_params(stmt, params)
        if routing == "w" and FAULTS.hook is not None:
            FAULTS.hook(name)
        with self._errors():
            records, _, _ = self.driver.execute_query(
                stmt.text,
                params,
                database_=self._database,
                routing_=neo4j.RoutingControl(routing),
            )
        return [_row(record) for record in records]

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._execute(name, params, "r")

    def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._execute(name, params, "w")

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One explicit write transaction: everything inside commits together or not at all."""
        with self._errors(), self.driver.session(database=self._database) as session:
            tx = session.begin_transaction()
            try:
                yield Tx(tx)  # type: ignore[arg-type]
                if FAULTS.hook is not None:
                    FAULTS.hook("commit")
                tx.commit()
            except BaseException:
                if not tx.closed():
                    tx.rollback()
                raise
            finally:
                tx.close()

    def retrying(self, work: Callable[[Tx], T]) -> T:
        """Run ``work`` in one write transaction, again from the start when the connection
        drops or the server reports a transient error (``work`` must be idempotent)."""

        def unit(tx: neo4j.ManagedTransaction) -> T:
            if FAULTS.hook is not None:
                FAULTS.hook("begin")
            return work(Tx(tx))

        with self._errors(), self.driver.session(database=self._database) as session:
            return session.execute_write(unit)

    def plan(self, name: str, *, profile: bool = False, **params: Any) -> dict[str, Any]:
        """A statement's plan tree (``operatorType``, ``args``, ``children``): EXPLAIN plans
        without running; PROFILE runs it in a read transaction (a write fails) and adds
        ``dbHits`` and ``rows`` per operator. For benchmarks and plan tests."""
        stmt = statement(name)
        _check_params(stmt, params)
        prefix = "PROFILE " if profile else "EXPLAIN "

        def unit(tx: neo4j.ManagedTransaction) -> dict[str, Any]:
            summary = tx.run(prefix + stmt.text, params).consume()
            found = summary.profile if profile else summary.plan
            return dict(found or {})

        with self._errors(), self.driver.session(database=self._database) as session:
            return session.execute_read(unit)

    def explain(self, name: str) -> None:
        """Plan a statement without running it (used by the tests on every catalog file)."""
        stmt = statement(name)
        with self.driver.session(database=self._database) as session:
            session.run("EXPLAIN " + stmt.text, dict.fromkeys(stmt.params)).consume()
