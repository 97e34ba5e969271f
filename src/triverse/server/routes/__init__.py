"""The HTTP and websocket routes, one :class:`fastapi.APIRouter` per area.

- :mod:`.games`: the server's health, the lobby (games, levels, modes) and a game's data;
- :mod:`.matches`: creating a match, a seat's view, "my games";
- :mod:`.play`: actions, previews, pause, and the match websocket;
- :mod:`.advice`: the veteran's hints and reviews;
- :mod:`.records`: finished games' records and replays;
- :mod:`.languages`: the browser's translation catalogues;
- :mod:`.accounts`: accounts and sessions (sign up, log in and out, password, deletion);
- :mod:`.lobby`: open games (the lobby's list and its websocket, joining, withdrawing);
- :mod:`.ratings`: leaderboards, a match's rating changes, public profiles;
- :mod:`.push`: Web Push (the server's key, subscriptions, the outbox);
- :mod:`.contests`: contests (creating, signing up, the host's actions, their websocket);
- :mod:`.pages`: the web UI's pages and static files.

Every route finds the :class:`~triverse.server.service.MatchService` in ``app.state.service``
and the seat token through one dependency (:data:`.deps.SeatToken`).
"""

from __future__ import annotations

from fastapi import APIRouter

from triverse.server.routes import (
    accounts,
    advice,
    contests,
    games,
    languages,
    lobby,
    matches,
    play,
    push,
    ratings,
    records,
)

API_ROUTERS: tuple[APIRouter, ...] = (
    games.router, matches.router, play.router, advice.router, records.router,
    languages.router, accounts.router, ratings.router, push.router, lobby.router,
    contests.router,
)
"""The routers of the API and the websocket (the pages come last: see :mod:`.pages`)."""

__all__ = ["API_ROUTERS"]
