"""``graphmem serve``: the HTTP API on 127.0.0.1 (docs/http.md)."""

from __future__ import annotations

import ipaddress
import socket
from typing import TYPE_CHECKING

import click

from graphmem.cli.common import app, handle_errors, preset_option
from graphmem.errors import ConfigError

if TYPE_CHECKING:
    from graphmem.http.guard import Guard

HOST = "127.0.0.1"  # never another interface: the API has one token and no TLS


def _check_free(port: int) -> None:
    """uvicorn would log the bind failure and exit 1; this says it as a setting error. The
    probe sets SO_REUSEADDR as uvicorn's own socket does: without it, the connections of a
    server just killed (TIME_WAIT, up to a minute) would refuse a restart uvicorn allows."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError as exc:
            raise ConfigError(
                f"cannot listen on {HOST}:{port}: {exc.strerror or exc}",
                hint="pick another with --port or GRAPHMEM_API_PORT",
            ) from None


def served_spaces(option: str | None) -> list[str]:
    """``--spaces`` as a list: [] (every space) when not given. Given but blank (``""``,
    ``","``) is refused: read as "no list", it would serve every space, the opposite of
    what a caller confining the server meant."""
    if option is None:
        return []
    names = [s.strip() for s in option.split(",") if s.strip()]
    if not names:
        raise ConfigError(
            f"--spaces {option!r} names no space; name at least one, or leave the option out "
            "to serve every space"
        )
    return names


def trusted_proxies(entries: list[str]) -> list[str]:
    """``api_trusted_proxies`` checked, the one place it is: each entry an IP address or a
    network, read as uvicorn reads them (an address without "/", a network with one, host
    bits unset). uvicorn takes anything else as a name to compare with the peer's, which
    a TCP peer never matches: a typo would leave the proxy's clients in one bucket,
    silently. ``*`` (uvicorn: trust everyone) is refused too: any local process could
    then pick its own bucket."""
    for entry in entries:
        try:
            ipaddress.ip_network(entry) if "/" in entry else ipaddress.ip_address(entry)
        except ValueError as exc:
            if "host bits" in str(exc):
                network = ipaddress.ip_network(entry, strict=False)
                reason = f"has host bits set (the network is {network})"
            else:
                reason = "is not an IP address or network"
            raise ConfigError(
                f"GRAPHMEM_API_TRUSTED_PROXIES: {entry!r} {reason}",
                hint='name addresses or networks as a JSON list, e.g. ["127.0.0.1"] or '
                '["10.0.0.0/8"]; [] believes no X-Forwarded-For',
            ) from None
    return entries


@click.command("serve")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Port on 127.0.0.1 (default: GRAPHMEM_API_PORT, 8484).",
)
@click.option(
    "--allow-writes",
    is_flag=True,
    help="Also accept POST /v1/messages and /v1/forget (off: read-only, they answer 403).",
)
@click.option(
    "--spaces",
    default=None,
    help="Comma-separated spaces the API may touch (default: every space; an empty list is "
    "refused).",
)
@click.option(
    "--prepare",
    is_flag=True,
    help="Before serving, prepare the default strategy over the served spaces (seconds per "
    "space) so that their first queries cost what later ones do.",
)
@preset_option
@click.pass_context
@handle_errors
def serve(
    ctx: click.Context, port: int | None, allow_writes: bool, spaces: str | None, prepare: bool
) -> None:
    """Serve memory over HTTP on 127.0.0.1: query, ask, spaces, stats (and messages, forget
    with --allow-writes), a bearer token from $GRAPHMEM_HOME/secrets/api-token."""
    try:
        import uvicorn  # noqa: F401  (the extra's check; _run uses it)

        from graphmem.http.app import build_app
        from graphmem.serving import MemoryService
    except ImportError as exc:  # the `http` extra is not installed
        raise ConfigError(
            f"the HTTP API needs FastAPI and uvicorn ({exc.name} is missing)",
            hint="pip install 'graphmem[http]'",
        ) from exc
    from graphmem.server.credentials import api_token

    served = served_spaces(spaces)
    context = app(ctx)
    settings = context.settings
    proxies = trusted_proxies(settings.api_trusted_proxies)
    bound = port or settings.api_port
    _check_free(bound)  # before seconds of --prepare, not after
    context.configs().check()  # a misspelt --preset stops here, not at every query
    token = api_token(settings)
    with context.memory() as memory:
        service = MemoryService(memory, served, allow_writes)
        if prepare:
            service.prepare(lambda line: click.echo(line, err=True))
        asgi = build_app(
            service,
            token=token,
            rate=settings.api_rate_per_second,
            burst=settings.api_rate_burst,
            max_body=settings.api_max_body_bytes,
        )
        mode = "read-write" if allow_writes else "read-only"
        where = f"http://{HOST}:{bound}"
        click.echo(
            f"graphmem serve: {where} ({mode}; token in {settings.api_token_file})", err=True
        )
        _run(asgi, bound, proxies)


def _run(asgi: Guard, port: int, proxies: list[str]) -> None:
    import uvicorn

    from graphmem.http.protocol import ConnectionLimits, JsonErrorsProtocol, WebSocketRefusal

    settings = app(click.get_current_context()).settings  # serve's, read once
    limits = ConnectionLimits(
        header_timeout=settings.api_header_timeout_seconds,
        body_timeout=settings.api_body_timeout_seconds,
        max_connections=settings.api_max_connections,
    )
    uvicorn.run(
        asgi,
        host=HOST,
        port=port,
        # uvicorn's own answers (a request it cannot parse, a WebSocket upgrade, a failure
        # before a response) in the API's JSON; h11 pinned (not "auto"): see the class. The
        # class also keeps the deadlines and the cap on connections (not limit_concurrency:
        # plain text, and only once a request has arrived).
        http=JsonErrorsProtocol.with_limits(limits),
        ws=WebSocketRefusal,
        log_level="warning",
        access_log=False,
        server_header=False,
        # X-Forwarded-For believed only from the named proxies: on for any peer, every
        # local client could name its own address, a fresh rate-limit bucket per request.
        # Always a list: uvicorn would read FORWARDED_ALLOW_IPS from the environment.
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies,
    )
