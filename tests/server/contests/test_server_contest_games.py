"""Contests of the four other games (issue 24, "Done when"): Trinity, Triangles, Trivinity and
Tri-ominoes go through the same code as Trident's: created, signed up for, closed, drawn onto
boards of the right sizes, started. None has a time-out rule, so a contest has no turn clock,
and a removed entrant's seat is played by a novice from then on; with computers everywhere
else, every board plays to its end and the contest finishes with its standings."""

from __future__ import annotations

import pytest
from contest_helpers import (
    Browser,
    Json,
    add_computer,
    contest,
    new_contest,
    seat_view,
    signed_up,
    until,
)
from fastapi.testclient import TestClient

from triverse.server.clock import ManualClock
from triverse.server.contest_draw import board_sizes, draw
from triverse.server.contest_models import Contest

GAMES = {
    "trinity": ({}, 3, 4, [3, 2]),
    "triangles": ({}, 2, 2, [2, 2]),
    "trivinity": ({}, 3, 4, [3, 2]),
    "triominoes": ({"target": 60}, 3, 6, [3, 2]),
}
"""Each game's options, players per board, most players, and the board sizes of five
entrants (Triangles is for two: one entrant sits out)."""



def finished(client: TestClient, contest_id: str) -> Json | None:
    found = contest(client, contest_id)
    return found if found["status"] == "finished" else None


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_contest_of_every_other_game_runs_to_its_standings(
    client: TestClient, clock: ManualClock, game: str,
) -> None:
    options, size, most, sizes = GAMES[game]
    host = Browser(client, "Hostess")
    contest_id = new_contest(client, host, clock, game=game, options=options,
                             players_per_board=size, rewards=[10, 5])
    found = contest(client, contest_id)
    assert found["turn_seconds"] is None and found["options"] == options
    guest = signed_up(client, contest_id, None, "Gus")
    for _ in range(4):
        add_computer(client, contest_id, host)
    closed = client.post(f"/api/contests/{contest_id}/close", headers=host.headers())
    assert closed.status_code == 200, closed.text
    found = closed.json()
    Contest.model_validate(found)
    assert found["status"] == "running" and [len(b["seats"]) for b in found["boards"]] == sizes
    assert board_sizes(5, size, 2, most) == sizes
    seed = found["draw"]["seed"]
    assert [[s["entry"] for s in b["seats"]] for b in found["boards"]] == draw(
        seed, [1, 2, 3, 4, 5], sizes)
    for board in found["boards"]:
        public = seat_view(client, board["match_id"])
        assert public["game"]["name"] == game and public["game"]["players"] == len(board["seats"])
        assert public["time_limit"] is None and board["deadline"] is None
        assert [p["name"] for p in public["players"]] == [s["name"] for s in board["seats"]]
    gus = next(e for e in found["entries"] if e["entry"] == guest["entry"])
    if gus["board"] is not None:  # a novice takes the guest's seat
        board = found["boards"][gus["board"] - 1]
        assert seat_view(client, board["match_id"], guest["secret"])["seat"] == gus["seat"]
    computer = next(e for e in found["entries"] if e["kind"] != "human")
    kept = client.post(f"/api/contests/{contest_id}/entries/{computer['entry']}/remove",
                       headers=host.headers())
    assert kept.status_code == 422 and kept.json()["error"]["code"] == "bad_request"
    removed = client.post(f"/api/contests/{contest_id}/entries/{guest['entry']}/remove",
                          headers=host.headers())
    assert removed.status_code == 200, removed.text
    if gus["board"] is not None:
        board = found["boards"][gus["board"] - 1]
        gone = client.get(f"/api/matches/{board['match_id']}/view",
                          headers={"X-Seat-Token": guest["secret"]})
        assert gone.status_code == 403  # the seat is a computer's now
    done = until(lambda: finished(client, contest_id), "every board to end", timeout=90)
    Contest.model_validate(done)
    seated = [s for b in done["boards"] for s in b["seats"]]
    assert all(s["place"] is not None for s in seated if not s["removed"])
    assert not any(s["missed"] for s in seated)  # no time-out rule: no turn is ever missed
    assert len(done["standings"]) == len(seated)
    assert done["standings"][0]["place"] == 1 and done["standings"][0]["reward"] == 10
    if gus["board"] is not None:
        assert done["standings"][-1]["entry"] == guest["entry"]
        assert done["standings"][-1]["reward"] is None
