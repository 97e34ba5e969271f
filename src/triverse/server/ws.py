"""The websocket of a match: ``/ws/matches/{match_id}``.

The client's first message is ``hello`` with its seat token (or none, to watch); the token never
appears in the URL, so it stays out of access logs. The server then pushes a ``view`` whenever
the match changes (a move, a time-out, a pause, a player connecting), rendered for that seat
alone, and answers ``action``, ``preview``, ``pause``, ``sync`` and ``ping`` messages. A
client that says ``"changes": true`` in its ``hello`` gets, after the first view, only what
changed (a ``changes`` message, :mod:`triverse.server.fanout`); spectators share one rendering
of the public view. Actions, pauses and previews count against their client address's rate
limits, and sockets against the caps per match and per client address
(:mod:`triverse.server.quotas`).
``docs/protocol.md`` documents every message, and :mod:`triverse.server.schemas` models them
(``ClientMessage``, ``ServerMessage``: ``tests/server/test_server_contract.py`` holds what this
module sends to those models).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from triverse.server.clock import iso_utc
from triverse.server.contests import contest_message
from triverse.server.errors import ServerError, clip
from triverse.server.fanout import Rendered, dumps, public_view, view_key
from triverse.server.lobby import open_games_message
from triverse.server.pubsub import PubSub, Subscription, match_channel
from triverse.server.quotas import client_address
from triverse.server.schemas import MAX_ACTION, whole
from triverse.server.service import MatchService
from triverse.server.views import render_view

log = logging.getLogger(__name__)

CLOSE_BAD_HELLO = 4400
CLOSE_WRONG_TOKEN = 4403
CLOSE_UNKNOWN_MATCH = 4404
CLOSE_HELLO_TIMEOUT = 4408
MAX_DEPTH = 32
"""The deepest nesting of a client's message (its ``id`` may be any JSON value): a deeper one
is ``bad_json``, well before Python's parser (or the reply echoing the ``id``) runs out of
stack."""
CLOSE_LIMITED = 4429
CLOSE_SERVER_ERROR = 1011
"""The standard close code of a server that cannot go on (a lobby socket whose list cannot be
read: the database away); the client reconnects later."""



class _Gone(Exception):
    """The client went away."""


async def until_either(*loops: Callable[[], Awaitable[None]]) -> None:
    """Run ``loops`` together until one of them ends (a socket gone ends it quietly), then
    cancel the others."""
    async with anyio.create_task_group() as group:

        async def side(loop: Callable[[], Awaitable[None]]) -> None:
            try:
                await loop()
            except _Gone:
                pass
            finally:
                group.cancel_scope.cancel()

        for loop in loops:
            group.start_soon(side, loop)


class _Socket:
    """What the match and lobby websockets share: sending one message at a time, errors,
    receiving a text frame, closing with a reason."""

    def __init__(self, websocket: WebSocket, service: MatchService) -> None:
        self.websocket = websocket
        self.service = service
        self.client = client_address(websocket)
        self._send_lock = asyncio.Lock()

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send one JSON message, or its text (one at a time)."""
        async with self._send_lock:
            await self._send_now(message)

    async def _send_now(self, message: dict[str, Any] | str) -> None:
        if self.websocket.application_state != WebSocketState.CONNECTED:
            raise _Gone
        try:
            await self.websocket.send_text(message if isinstance(message, str)
                                           else dumps(message))
        except (WebSocketDisconnect, RuntimeError, OSError) as exc:
            raise _Gone from exc

    async def send_error(self, error: ServerError, request_id: Any = None) -> None:
        """Send an ``error`` message (with ``retry_after`` when the error has one)."""
        self.service.metrics.error(error.code, "websocket")
        message = {"type": "error", **error.to_json(), "id": request_id}
        if error.retry_after is not None:
            message["retry_after"] = error.retry_after
        await self.send(message)

    async def _receive(self) -> str | None:
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            raise _Gone
        text = message.get("text")
        if text is None and message.get("bytes") is not None:
            try:
                text = message["bytes"].decode("utf-8")
            except UnicodeDecodeError:
                return None  # refused as bad_json, like a frame that is not text
        return text

    async def _close(self, code: int, error: ServerError) -> None:
        with contextlib.suppress(_Gone):
            await self.send_error(error)
        with contextlib.suppress(Exception):
            await self.websocket.close(code=code, reason=error.code)


class MatchConnection(_Socket):
    """One open websocket, for one seat (or a spectator) of one match."""

    def __init__(
        self, websocket: WebSocket, service: MatchService, pubsub: PubSub, match_id: str
    ) -> None:
        super().__init__(websocket, service)
        self.pubsub = pubsub
        self.match_id = match_id
        self.seat: int | None = None
        self.token: str | None = None
        self.key_until: datetime | None = None
        """When the session of the device key this socket's seat was opened with ends
        (``None``: the seat's own token, or a spectator): the key is checked again then, and
        whenever news says keys or seats changed."""
        self.log_limit: int | None = None
        self.changes = False
        """Whether the client asked for ``changes`` messages after its first view."""
        self._last_view: dict[str, Any] | None = None
        self._made_of: tuple[Any, tuple[Any, ...]] = (None, ())
        """The state and :func:`~triverse.server.fanout.view_key` the last view was made of."""

    # --- sending ------------------------------------------------------------------------------
    async def send_view(self, force: bool = False, fresh: bool = False) -> None:
        """Send this seat's view, unless it is the same as the last one sent: the whole view,
        or what changed since the last one if the client asked for ``changes`` (``force``:
        the whole view, even if unchanged). With ``fresh``, moves another process stored are
        applied first (a reply to ``sync``)."""
        await self._check_key(news=False)
        live = await self.service.live(self.match_id, fresh)
        state, key = live.state, view_key(live)
        if not force and state is self._made_of[0] and key == self._made_of[1]:
            return  # made of the same as the last view: the same view (the mover's, say)
        self._made_of = (state, key)
        if self.seat is None:
            rendered = public_view(live, self.log_limit)  # one rendering for every spectator
        else:
            rendered = Rendered(render_view(live, self.seat, log_limit=self.log_limit))
        last, view = self._last_view, rendered.view
        if not force and (view is last or view == last):
            return
        self._last_view = view
        stamp = f'"server_time":"{self._server_time()}"}}'  # the shared text, then this
        if self.changes and not force and last is not None:
            opened = rendered.changes_from(last)
            if opened is not None:
                await self.send(opened + "," + stamp)
                return
        await self.send('{"type":"view","view":' + rendered.text + "," + stamp)

    def _server_time(self) -> str:
        """The server's clock, so that a client can count down to a deadline with its own."""
        return iso_utc(self.service.clock.now())

    # --- the conversation ---------------------------------------------------------------------
    async def run(self) -> None:
        """Accept, authenticate with ``hello``, then serve until the client leaves."""
        await self.websocket.accept()
        sockets = self.service.quotas.sockets
        try:
            sockets.open(self.match_id, self.client)
        except ServerError as exc:
            await self._close(CLOSE_LIMITED, exc)
            return
        try:
            await self._serve_socket()
        finally:
            sockets.close(self.match_id, self.client)

    async def _serve_socket(self) -> None:
        try:
            if not await self._hello():
                return
            live = await self.service.live(self.match_id)
            subscription = self.pubsub.subscribe(match_channel(self.match_id))
            await self.service.connect(live, self.seat)
            try:
                await subscription.ready()
                await self.send_view(force=True)
                await self._serve(subscription)
            finally:
                await subscription.unsubscribe()
                await self.service.disconnect(live, self.seat)
        except _Gone:
            pass

    async def _hello(self) -> bool:
        timeout = self.service.settings.hello_timeout
        try:
            with anyio.fail_after(timeout):
                text = await self._receive()
        except TimeoutError:
            await self._close(CLOSE_HELLO_TIMEOUT, ServerError(
                "bad_request", f"no hello message within {timeout:g} s"))
            return False
        message = _parse(text, self.service.settings.max_body)
        if isinstance(message, ServerError) or message.get("type") != "hello":
            error = message if isinstance(message, ServerError) else ServerError(
                "bad_request", "the first message must be {\"type\": \"hello\", ...}")
            await self._close(CLOSE_BAD_HELLO, error)
            return False
        token, seat, limit = (message.get("token"), whole(message.get("seat")),
                              whole(message.get("log")))
        changes = message.get("changes", False)
        if (token is not None and not isinstance(token, str)) or not _count(seat) or (
                not _count(limit)) or not isinstance(changes, bool):
            await self._close(CLOSE_BAD_HELLO, ServerError(
                "bad_request", "hello's 'token' is a string, 'seat' and 'log' whole numbers, "
                "'changes' true or false"))
            return False
        self.log_limit, self.changes = limit, changes
        rates = self.service.quotas.rates
        try:
            if token:
                await rates.check("token_failure", self.client)
        except ServerError as exc:
            await self._close(CLOSE_LIMITED, exc)
            return False
        try:
            live = await self.service.live(self.match_id, fresh=True)
            opened = await self.service.open_seat(live, token, seat, required=False)
        except ServerError as exc:
            if exc.code == "wrong_token":
                await rates.count("token_failure", self.client)
            code = CLOSE_UNKNOWN_MATCH if exc.code == "unknown_match" else CLOSE_WRONG_TOKEN
            await self._close(code, exc)
            return False
        self.token = token
        if opened is not None:
            self.seat, self.key_until = opened.seat, opened.until
        return True

    async def _check_key(self, news: bool) -> None:
        """A socket opened with a device key: check the key again when ``news`` said keys or
        seats changed, or when its session's time is up; if it no longer opens the seat (the
        session ended), say so and close."""
        if self.key_until is None or (not news and self.service.clock.now() < self.key_until):
            return
        try:
            live = await self.service.live(self.match_id)
            opened = await self.service.open_seat(live, self.token, self.seat)
        except ServerError as exc:
            await self._close(CLOSE_WRONG_TOKEN, ServerError(
                exc.code, "the session this device key belonged to has ended")
                if exc.code == "wrong_token" else exc)
            raise _Gone from None
        self.key_until = None if opened is None else opened.until

    async def _serve(self, subscription: Subscription) -> None:
        """Read the client's messages and forward updates, until either side ends."""
        await until_either(self._receive_loop, lambda: self._forward_loop(subscription))

    async def _forward_loop(self, subscription: Subscription) -> None:
        async for message in subscription:
            try:
                if message.get("reason") == "withdrawn":
                    raise ServerError("unknown_match", f"match {self.match_id!r} was "
                                      "withdrawn from the lobby")
                if self.service.news.from_elsewhere(message):
                    await self.service.catch_up(self.match_id, message)
                if message.get("reason") in ("keys", "seats", None):
                    await self._check_key(news=True)
                await self.send_view()
            except ServerError as exc:
                if exc.code != "unknown_match":
                    raise
                await self._close(CLOSE_UNKNOWN_MATCH, exc)  # an open game withdrawn
                raise _Gone from None

    async def _receive_loop(self) -> None:
        while True:
            text = await self._receive()
            message = _parse(text, self.service.settings.max_body)
            if isinstance(message, ServerError):
                await self.send_error(message)
                continue
            request_id = message.get("id")
            try:
                await self._handle(message, request_id)
            except ServerError as exc:
                await self.send_error(exc, request_id)
            except _Gone:
                raise
            except Exception:
                log.exception("match %s: a websocket message failed", self.match_id)
                await self.send_error(ServerError("server_error", "the server failed to "
                                                  "handle this message"), request_id)

    async def _handle(self, message: dict[str, Any], request_id: Any) -> None:
        kind = message.get("type")
        if kind == "ping":
            await self.send({"type": "pong", "id": request_id,
                             "server_time": self._server_time()})
        elif kind == "sync":
            await self.send_view(force=True, fresh=True)
        elif kind == "action":
            action, move = message.get("action"), whole(message.get("move"))
            if not isinstance(action, str) or len(action) > MAX_ACTION or not isinstance(
                    move, int) or isinstance(move, bool):
                raise ServerError("bad_request", "an action message has 'action' (notation, a "
                                  f"string of at most {MAX_ACTION} characters) and 'move' (the "
                                  "view's move number)")
            await self.service.quotas.rates.hit("action", self.client)
            # Holding the send lock, so that "accepted" goes out before any view showing it.
            async with self._send_lock:
                live = await self.service.act(self.match_id, self.token, action, move)
                entry = live.log[move]
                await self._send_now({"type": "accepted", "id": request_id,
                                      "move": entry.number, "action": entry.action})
            await self.send_view()
        elif kind == "preview":
            action, move = message.get("action"), whole(message.get("move"))
            if not isinstance(action, str) or len(action) > MAX_ACTION or not (
                    move is None or (isinstance(move, int) and not isinstance(move, bool))):
                raise ServerError("bad_request", "a preview message has 'action' (notation, a "
                                  f"string of at most {MAX_ACTION} characters) and optionally "
                                  "'move' (the view's move number)")
            await self.service.quotas.rates.hit("preview", self.client)
            number, preview = await self.service.preview(self.match_id, self.token, action,
                                                         move)
            await self.send({"type": "preview_result", "id": request_id, "move": number,
                             "preview": preview})
        elif kind == "pause":
            paused = message.get("paused")
            if not isinstance(paused, bool):
                raise ServerError("bad_request", "a pause message has 'paused': true or false")
            await self.service.quotas.rates.hit("action", self.client)
            await self.service.set_paused(self.match_id, self.token, paused)
            await self.send_view()
        elif kind == "hello":
            raise ServerError("bad_request", "hello was already said on this connection")
        else:
            raise ServerError("bad_request", f"unknown message type {clip(kind)}; the types are "
                              "action, preview, pause, sync, ping")


def _count(value: Any) -> bool:
    """Whether ``value`` is absent (``None``) or a whole number from 0."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool)
                             and value >= 0)


def _deeper_than(value: Any, depth: int) -> bool:
    """Whether the JSON ``value`` nests lists and objects more than ``depth`` levels deep
    (without recursion).

    >>> _deeper_than([[1]], 2), _deeper_than([[[1]]], 2), _deeper_than({"a": [1]}, 2)
    (False, True, False)
    """
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            if level >= depth:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return False


def _parse(text: str | None, limit: int) -> dict[str, Any] | ServerError:
    """The client's message, or the error to answer it with: ``bad_json`` for a frame that is
    not text, not JSON or nested deeper than :data:`MAX_DEPTH`, ``too_large`` for one over
    ``limit`` characters (not even read), ``bad_request`` for JSON that is not an object.

    >>> _parse('{"type": "sync"}', 100)
    {'type': 'sync'}
    >>> _parse("[" * 100_000 + "]" * 100_000, 10**6).code
    'bad_json'
    >>> _parse("x" * 101, 100).code
    'too_large'
    >>> _parse('{"type": "ping", "id": ' + "[" * 40 + "]" * 40 + "}", 1000).code
    'bad_json'
    """
    if text is None:
        return ServerError("bad_json", "a message is a JSON object in a UTF-8 text frame")
    if len(text) > limit:
        return ServerError("too_large", f"a message is at most {limit:,} characters")
    try:
        message = json.loads(text)
    except json.JSONDecodeError as exc:
        return ServerError("bad_json", f"not valid JSON: {exc}")
    except RecursionError:
        message = None
    if message is None or _deeper_than(message, MAX_DEPTH):
        return ServerError("bad_json", f"a message is nested at most {MAX_DEPTH} levels deep")
    if not isinstance(message, dict):
        return ServerError("bad_request", "a message is a JSON object with a 'type'")
    return message


class LobbyConnection(_Socket):
    """One open lobby websocket (``/ws/lobby``): the open games at once, then again after
    every change (:class:`~triverse.server.lobby.LobbyFeed`); it answers ``ping`` with
    ``pong``. Sockets count against the lobby's cap and their client address's
    (:class:`~triverse.server.quotas.SocketQuota`)."""

    def __init__(self, websocket: WebSocket, service: MatchService) -> None:
        super().__init__(websocket, service)
        self._last: str | None = None

    async def send_games(self, text: str) -> None:
        """Send the list, unless it is the one sent last."""
        if text != self._last:
            self._last = text
            await self.send(text)

    async def run(self) -> None:
        """Accept, then serve until the client leaves."""
        await self.websocket.accept()
        sockets = self.service.quotas.sockets
        try:
            await self.service.quotas.rates.hit("lobby", self.client)
            sockets.open_lobby(self.client)
        except ServerError as exc:
            await self._close(CLOSE_LIMITED, exc)
            return
        try:
            feed = self.service.lobby_feed
            watcher = await feed.watch()
            try:
                try:
                    games = await self.service.open.games()
                except Exception:
                    log.exception("cannot read the open games for a lobby socket")
                    await self._close(CLOSE_SERVER_ERROR, ServerError(
                        "server_error", "the server cannot read the open games now"))
                    return
                await self.send_games(open_games_message(games))

                async def forward() -> None:
                    while True:
                        await self.send_games(await watcher.next())

                await until_either(self._receive_loop, forward)
            finally:
                feed.unwatch(watcher)
        except _Gone:
            pass
        finally:
            sockets.close_lobby(self.client)

    async def _receive_loop(self) -> None:
        while True:
            parsed = _parse(await self._receive(), self.service.settings.max_body)
            if isinstance(parsed, ServerError):
                await self.send_error(parsed)
                continue
            request_id = parsed.get("id")
            if parsed.get("type") == "ping":
                await self.send({"type": "pong", "id": request_id,
                                 "server_time": iso_utc(self.service.clock.now())})
            else:
                await self.send_error(ServerError(
                    "bad_request", f"unknown message type {clip(parsed.get('type'))}; the "
                    "lobby takes ping"), request_id)


class ContestConnection(LobbyConnection):
    """One open contest websocket (``/ws/contests/{id}``): the public contest at once, then
    again after every change (:class:`~triverse.server.contests.ContestFeeds`); it answers
    ``ping`` with ``pong``. Sockets count as lobby sockets against the caps."""

    def __init__(self, websocket: WebSocket, service: MatchService, contest_id: str) -> None:
        super().__init__(websocket, service)
        self.contest_id = contest_id

    async def run(self) -> None:
        """Accept, then serve until the client leaves."""
        await self.websocket.accept()
        sockets = self.service.quotas.sockets
        try:
            await self.service.quotas.rates.hit("contest_read", self.client)
            await self.service.contests.data(self.contest_id)
            sockets.open_lobby(self.client)
        except ServerError as exc:
            await self._close(CLOSE_UNKNOWN_MATCH if exc.code == "unknown_contest"
                              else CLOSE_LIMITED, exc)
            return
        try:
            await self._serve()
        except _Gone:
            pass
        finally:
            sockets.close_lobby(self.client)

    async def _serve(self) -> None:
        feeds = self.service.contests.feeds
        feed, watcher = await feeds.watch(self.contest_id)
        try:
            try:
                text = contest_message(await self.service.contests.public(self.contest_id))
            except Exception:
                log.exception("cannot read contest %s for its socket", self.contest_id)
                await self._close(CLOSE_SERVER_ERROR, ServerError(
                    "server_error", "the server cannot read the contest now"))
                return
            await self.send_games(text)

            async def forward() -> None:
                while True:
                    await self.send_games(await watcher.next())

            await until_either(self._receive_loop, forward)
        finally:
            feeds.unwatch(self.contest_id, feed, watcher)
