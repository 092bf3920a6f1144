"""``GraphStore``: the one owner of the Neo4j driver and of transactions.

Every statement comes from the catalog by name; values always travel as parameters.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import neo4j
from neo4j import GraphDatabase
from neo4j.exceptions import AuthError, ServiceUnavailable
from neo4j.graph import Node, Path, Relationship

from graphmem.catalog import Statement, statement
from graphmem.config import Settings
from graphmem.errors import CatalogError, ServerError

_GRAPH_TYPES = (Node, Relationship, Path)


def _row(record: neo4j.Record) -> dict[str, Any]:
    """A record as a dict. ``Record.data()`` walks every list element in Python (1.4 s for
    1,600 embeddings of 384 floats), so it is kept for the values that may hold graph
    objects: a node, relationship or path, a map, or a list of maps, lists or graph objects.
    """
    out = dict(zip(record.keys(), record.values(), strict=True))
    for key, value in out.items():
        if _may_hold_graph(value):
            out[key] = record.data(key)[key]
    return out


def _may_hold_graph(value: object) -> bool:
    if isinstance(value, (*_GRAPH_TYPES, dict)):
        return True
    return (
        isinstance(value, list)
        and bool(value)
        and isinstance(value[0], (*_GRAPH_TYPES, dict, list))
    )


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
    from graphmem.server.process import read_password

    local_password = read_password(settings)
    if local_password is None:
        raise ServerError(
            "no local Neo4j has been set up yet",
            hint="run `graphmem server start`, or set NEO4J_URI/NEO4J_USER/NEO4J_PASSWORD",
        )
    return Connection(f"bolt://127.0.0.1:{settings.bolt_port}", "neo4j", local_password, "neo4j")


def bolt_ready(settings: Settings) -> bool:
    conn = connection(settings)
    try:
        with GraphDatabase.driver(conn.uri, auth=(conn.user, conn.password)) as driver:
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
        return [_row(record) for record in self._tx.run(stmt.text, params)]


class GraphStore:
    """Owns the driver. Constructing one does no I/O; the driver opens on first use."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._driver: neo4j.Driver | None = None
        self._database = settings.neo4j_database if settings.external else "neo4j"

    @property
    def driver(self) -> neo4j.Driver:
        if self._driver is None:
            conn = connection(self._settings)
            self._driver = GraphDatabase.driver(
                conn.uri,
                auth=(conn.user, conn.password),
                # "label does not exist" warnings on a fresh space are noise, not news
                notifications_min_severity="OFF",
            )
            try:
                self._driver.verify_connectivity()
            except AuthError as exc:
                raise ServerError(f"Neo4j refused the credentials: {exc.message}") from exc
            except (ServiceUnavailable, OSError) as exc:
                self._driver = None
                raise ServerError(
                    f"Neo4j is not reachable at {conn.uri}",
                    hint="run `graphmem server start` (or check NEO4J_URI)",
                ) from exc
        return self._driver

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
        stmt = statement(name)
        _check_params(stmt, params)
        records, _, _ = self.driver.execute_query(
            stmt.text, params, database_=self._database, routing_=neo4j.RoutingControl(routing)
        )
        return [_row(record) for record in records]

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._execute(name, params, "r")

    def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._execute(name, params, "w")

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One explicit write transaction: everything inside commits together or not at all."""
        with self.driver.session(database=self._database) as session:
            tx = session.begin_transaction()
            try:
                yield Tx(tx)  # type: ignore[arg-type]
                tx.commit()
            except BaseException:
                tx.rollback()
                raise
            finally:
                tx.close()

    def explain(self, name: str) -> None:
        """Plan a statement without running it (used by the tests on every catalog file)."""
        stmt = statement(name)
        with self.driver.session(database=self._database) as session:
            session.run("EXPLAIN " + stmt.text, dict.fromkeys(stmt.params)).consume()
