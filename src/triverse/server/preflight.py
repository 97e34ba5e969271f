"""What ``triverse serve`` checks before it starts the server, so that a refusal is one
plain line instead of a traceback: the port is free, no other server uses the database; and
where the games are kept, as a person reads it."""

from __future__ import annotations

import errno
import socket

from triverse.server.exclusive import DatabaseInUse
from triverse.server.exclusive import check_database as claim_check


class CannotStart(Exception):
    """The server cannot start; the message says why, in a line."""


def check_port(host: str, port: int, url: str) -> None:
    """Fail clearly if ``host:port`` cannot be listened on (most often: a server runs there)."""
    try:
        family, kind, proto, _, where = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        raise CannotStart(f"cannot listen on {host}: {exc.strerror}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(where)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise CannotStart(f"port {port} is taken (is Triverse already running? open "
                                  f"{url}, or use --port)") from None
            raise CannotStart(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def check_database(url: str, shared: bool = False) -> None:
    """Fail clearly if another Triverse server is using the database in a way this one cannot
    share (``shared``: this server shares Redis). The server claims it for good at start-up
    (``triverse.server.exclusive``); this early look only spares a refusal uvicorn's
    traceback. Other problems (an unreachable database) are left for the start-up to
    report."""
    try:
        claim_check(url, shared)
    except DatabaseInUse as exc:
        raise CannotStart(str(exc)) from None
    except Exception:  # an unreachable database, say: the start-up reports it
        pass


def where_games_are_kept(url: str) -> str:
    """A database URL as a person reads it: a SQLite file's path, or the URL without its
    password."""
    if url.startswith("sqlite:///"):
        return url.removeprefix("sqlite:///")
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
