"""``graphmem serve``: the HTTP API on 127.0.0.1 (docs/http.md)."""

from __future__ import annotations

import socket

import click

from graphmem.cli.common import app, handle_errors, preset_option
from graphmem.errors import ConfigError

HOST = "127.0.0.1"  # never another interface: the API has one token and no TLS


def _check_free(port: int) -> None:
    """uvicorn would log the bind failure and exit 1; this says it as a setting error."""
    with socket.socket() as probe:
        try:
            probe.bind((HOST, port))
        except OSError as exc:
            raise ConfigError(
                f"cannot listen on {HOST}:{port}: {exc.strerror or exc}",
                hint="pick another with --port or GRAPHMEM_API_PORT",
            ) from None


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
    "--spaces", default="", help="Comma-separated spaces the API may touch (default: every space)."
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
    ctx: click.Context, port: int | None, allow_writes: bool, spaces: str, prepare: bool
) -> None:
    """Serve memory over HTTP on 127.0.0.1: query, ask, spaces, stats (and messages, forget
    with --allow-writes), a bearer token from $GRAPHMEM_HOME/secrets/api-token."""
    try:
        import uvicorn

        from graphmem.http.app import build_app
        from graphmem.http.service import MemoryService
    except ImportError as exc:  # the `http` extra is not installed
        raise ConfigError(
            f"the HTTP API needs FastAPI and uvicorn ({exc.name} is missing)",
            hint="pip install 'graphmem[http]'",
        ) from exc
    from graphmem.credentials import api_token

    context = app(ctx)
    settings = context.settings
    bound = port or settings.api_port
    _check_free(bound)  # before seconds of --prepare, not after
    context.configs().check()  # a misspelt --preset stops here, not at every query
    token = api_token(settings)
    served = [s.strip() for s in spaces.split(",") if s.strip()]
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
        uvicorn.run(asgi, host=HOST, port=bound, log_level="warning", access_log=False)
