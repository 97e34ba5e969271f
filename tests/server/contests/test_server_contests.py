"""Contests (issue 24): a Trident contest of seven entrants (accounts, guests, computers) from
sign-up to standings. The close of sign-up draws boards of 4 and 3 from the contest's seed,
which the test recomputes from the revealed seed and checks against the commitment shown from
the start; each human entrant's secret opens their seat; a human moves, a turn times out, the
host removes a player whose turns are then passed at once, and the boards play to the end:
places, rewards and the overall table follow the matches' results. The websocket follows the
contest, announcements included."""

from __future__ import annotations

import json
from typing import Any

from contest_helpers import (
    SIGNUP,
    TURN,
    Browser,
    Json,
    add_computer,
    code,
    contest,
    new_contest,
    seat_view,
    settle,
    signed_up,
    until,
)
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from triverse.server.clock import ManualClock
from triverse.server.contest_draw import Standing as Line
from triverse.server.contest_draw import board_sizes, contest_commitment, draw, overall, places
from triverse.server.contest_models import Contest, ContestList, ContestMessage, MeAnswer
from triverse.server.db import hash_token


def enter_seven(client: TestClient, contest_id: str, host: Browser) -> dict[int, str]:
    """Ann and Bob (accounts), Gus and Gil (guests), three novices: the humans' secrets by
    entry number."""
    ann, bob = Browser(client, "Ann"), Browser(client, "Bob")
    secrets = {}
    for who, name in ((ann, None), (bob, None), (None, "Gus"), (None, "Gil")):
        entry = signed_up(client, contest_id, who, name)
        assert entry["name"] == (name or who.name)  # type: ignore[union-attr]
        assert entry["link"] == f"/contests/{contest_id}#me={entry['secret']}"
        secrets[entry["entry"]] = entry["secret"]
    for _ in range(3):
        add_computer(client, contest_id, host)
    return secrets


def check_draw(found: Json) -> None:
    """The boards are the draw recomputed from the revealed seed, which the commitment
    binds."""
    seed, salt = found["draw"]["seed"], found["draw"]["salt"]
    assert isinstance(seed, int) and isinstance(salt, str)
    assert contest_commitment(salt, found["id"], seed) == found["draw"]["commitment"]
    sizes = board_sizes(len(found["entries"]), 4, 2, 4)
    assert sizes == [4, 3]
    expected = draw(seed, [e["entry"] for e in found["entries"]], sizes)
    assert [[s["entry"] for s in b["seats"]] for b in found["boards"]] == expected
    for board in found["boards"]:
        for seat in board["seats"]:
            entry = next(e for e in found["entries"] if e["entry"] == seat["entry"])
            assert (entry["board"], entry["seat"]) == (board["board"], seat["seat"])


def where(found: Json, entry: int) -> tuple[Json, Json]:
    """The board and seat of an entry."""
    for board in found["boards"]:
        for seat in board["seats"]:
            if seat["entry"] == entry:
                return board, seat
    raise AssertionError(f"entry {entry} has no seat")


def secrets_open_their_seats(client: TestClient, found: Json, secrets: dict[int, str]) -> None:
    for number, secret in secrets.items():
        board, seat = where(found, number)
        assert seat_view(client, board["match_id"], secret)["seat"] == seat["seat"]
        me = client.get(f"/api/contests/{found['id']}/me", headers={"X-Seat-Token": secret})
        assert me.status_code == 200, me.text
        MeAnswer.model_validate(me.json())
        assert me.json()["play"] == f"/play/{board['match_id']}?seat={seat['seat']}"
        other = next(b for b in found["boards"] if b["board"] != board["board"])
        wrong = client.get(f"/api/matches/{other['match_id']}/view",
                           headers={"X-Seat-Token": secret})
        assert wrong.status_code == 403 and code(wrong) == "wrong_token"


def nothing_secret(client: TestClient, db_url: str, text_seen: str,
                   secrets: dict[int, str]) -> None:
    """No secret, secret hash or match seed in what the server sent."""
    engine = create_engine(db_url)
    with engine.connect() as connection:
        seeds = connection.execute(text("SELECT seed FROM matches")).scalars().all()
    engine.dispose()
    for secret in secrets.values():
        assert secret not in text_seen and hash_token(secret) not in text_seen
    for seed in seeds:
        assert str(seed) not in text_seen


def human_to_move(found: Json) -> tuple[Json, Json] | None:
    for board in found["boards"]:
        if board["status"] == "active":
            seat = board["seats"][board["to_move"]]
            if seat["kind"] == "human" and not seat["removed"]:
                return board, seat
    return None


def a_human_moves(client: TestClient, found: Json, secrets: dict[int, str]) -> None:
    board, seat = human_to_move(found) or (None, None)
    assert board is not None and seat is not None
    mine = seat_view(client, board["match_id"], secrets[seat["entry"]])
    answer = client.post(f"/api/matches/{board['match_id']}/actions",
                         headers={"X-Seat-Token": secrets[seat["entry"]]},
                         json={"action": mine["legal_actions"][0]["notation"],
                               "move": mine["move"]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["view"]["move"] == board["move"] + 1


def own_actions(client: TestClient, match_id: str, secret: str) -> list[str]:
    """The actions a seat's log shows it made."""
    return [item["action"] for item in seat_view(client, match_id, secret)["log"]
            if "action" in item]


def a_turn_times_out(client: TestClient, clock: ManualClock, contest_id: str,
                     secrets: dict[int, str]) -> None:
    found = settle(client, contest_id)
    board, seat = human_to_move(found) or (None, None)
    assert board is not None and seat is not None
    assert board["deadline"] is not None and board["to_move_name"] == seat["name"]
    clock.advance(TURN + 1)
    until(lambda: contest(client, contest_id)["boards"][board["board"] - 1]["move"]
          > board["move"], "the time-out")
    assert own_actions(client, board["match_id"], secrets[seat["entry"]])[-1] == "timeout"
    # The contest's page counts the missed turn on the seat's row.
    now = contest(client, contest_id)["boards"][board["board"] - 1]["seats"][seat["seat"]]
    assert now["entry"] == seat["entry"] and now["missed"] == seat["missed"] + 1


def removal_passes(client: TestClient, clock: ManualClock, host: Browser, contest_id: str,
                   secrets: dict[int, str]) -> int:
    """The host removes a human entrant of a board still playing; their turns pass at once
    (the clock stands still). The entry removed."""
    found = settle(client, contest_id)
    board, seat = next((b, s) for b in found["boards"] for s in b["seats"]
                       if b["status"] == "active" and s["kind"] == "human")
    number = seat["entry"]
    before = own_actions(client, board["match_id"], secrets[number])
    refused = client.post(f"/api/contests/{contest_id}/entries/{number}/remove",
                          headers=Browser(client, "Other").headers())
    assert refused.status_code == 403 and code(refused) == "not_host"
    answer = client.post(f"/api/contests/{contest_id}/entries/{number}/remove",
                         headers=host.headers())
    assert answer.status_code == 200, answer.text
    assert next(e for e in answer.json()["entries"] if e["entry"] == number)["removed"]

    while True:  # the others' turns time out; the removed seat's pass needs no clock
        now = settle(client, contest_id)  # which never rests on the removed seat
        mine = next(b for b in now["boards"] if b["board"] == board["board"])
        after = own_actions(client, board["match_id"], secrets[number])
        if mine["status"] == "finished" or len(after) > len(before):
            break
        time_out_everyone(client, clock, contest_id, now)
    assert after[len(before):] and set(after[len(before):]) == {"timeout"}
    seats = next(b for b in contest(client, contest_id)["boards"]
                 if b["board"] == board["board"])["seats"]
    assert seats[seat["seat"]]["missed"] >= seat["missed"] + len(after) - len(before)
    return number


def time_out_everyone(client: TestClient, clock: ManualClock, contest_id: str,
                      found: Json) -> None:
    """The clock passes the deadline of every human to move; wait for their time-outs."""
    moves = [b["move"] for b in found["boards"]]
    clock.advance(TURN + 1)

    def moved() -> bool:
        now = contest(client, contest_id)
        return [b["move"] for b in now["boards"]] != moves or now["status"] == "finished"

    until(moved, "time-outs")


def play_out(client: TestClient, clock: ManualClock, contest_id: str) -> Json:
    """Every human turn times out until every board is over."""
    while True:
        found = settle(client, contest_id)
        if found["status"] == "finished":
            return found
        time_out_everyone(client, clock, contest_id, found)


def check_standings(client: TestClient, found: Json, removed: int) -> None:
    assert found["status"] == "finished"
    lines = []
    for board in found["boards"]:
        result = seat_view(client, board["match_id"])["result"]
        gone = [s["removed"] for s in board["seats"]]
        assert [s["place"] for s in board["seats"]] == places(result["ranks"], gone)
        assert [s["score"] for s in board["seats"]] == result["scores"]
        for seat in board["seats"]:
            reward = None if seat["place"] is None else (
                [300, 250, 200, 150][seat["place"] - 1])
            assert seat["reward"] == reward
            lines.append(Line(seat["entry"], seat["name"], board["board"], seat["place"],
                              seat["reward"], seat["score"], seat["removed"]))
    assert [s["entry"] for s in found["standings"]] == [s.entry for s in overall(lines)]
    last = found["standings"][-1]
    assert last["entry"] == removed and last["place"] is None and last["reward"] is None
    rewards = [s["reward"] for s in found["standings"] if s["reward"] is not None]
    assert rewards == sorted(rewards, reverse=True)
    assert found["standings"][0]["place"] == 1 and found["standings"][0]["reward"] == 300


def test_a_trident_contest_of_seven_from_sign_up_to_standings(
    client: TestClient, clock: ManualClock, db_url: str,
) -> None:
    host = Browser(client, "Hostess")
    contest_id = new_contest(client, host, clock)
    found = contest(client, contest_id, host)
    Contest.model_validate(found)
    assert found["status"] == "signup" and found["is_host"] and found["host"] == "Hostess"
    assert found["draw"]["seed"] is None and len(found["draw"]["commitment"]) == 64
    assert found["turn_seconds"] == TURN and found["reward_name"] == "WRZ$"
    assert not contest(client, contest_id)["is_host"]
    secrets = enter_seven(client, contest_id, host)
    listed = client.get("/api/contests").json()
    ContestList.model_validate(listed)
    assert listed["contests"][0]["id"] == contest_id and listed["contests"][0]["entrants"] == 7

    clock.advance(SIGNUP)  # the scheduler closes the sign-up: nobody asks
    until(lambda: contest(client, contest_id)["draw"]["seed"] is not None, "the close")
    found = contest(client, contest_id)
    Contest.model_validate(found)
    check_draw(found)
    assert [len(b["seats"]) for b in found["boards"]] == [4, 3]
    secrets_open_their_seats(client, found, secrets)
    late = client.post(f"/api/contests/{contest_id}/entries", json={"name": "Late"})
    assert late.status_code == 409 and code(late) == "signup_closed"

    a_human_moves(client, settle(client, contest_id), secrets)
    a_turn_times_out(client, clock, contest_id, secrets)
    removed = removal_passes(client, clock, host, contest_id, secrets)
    finished = play_out(client, clock, contest_id)
    Contest.model_validate(finished)
    check_standings(client, finished, removed)
    nothing_secret(client, db_url, json.dumps(finished), secrets)


def test_the_websocket_follows_entries_announcements_and_the_close(
    client: TestClient, clock: ManualClock,
) -> None:
    host = Browser(client, "Hostess")
    contest_id = new_contest(client, host, clock, game="triangles", players_per_board=2)
    with client.websocket_connect(f"/ws/contests/{contest_id}") as socket:
        first = socket.receive_json()
        ContestMessage.model_validate(first)
        assert first["contest"]["status"] == "signup" and first["contest"]["entries"] == []

        heard: list[str] = []

        def next_until(check: Any) -> Json:
            while True:
                message: Json = socket.receive_json()
                ContestMessage.model_validate(message)
                heard.append(json.dumps(message))
                if check(message["contest"]):
                    return message

        gus = signed_up(client, contest_id, None, "Gus")
        next_until(lambda c: [e["name"] for e in c["entries"]] == ["Gus"])
        answer = client.post(f"/api/contests/{contest_id}/announcements",
                             headers=host.headers(), json={"text": "Welcome, players!"})
        assert answer.status_code == 201 and answer.json()["text"] == "Welcome, players!"
        got = next_until(lambda c: c["announcements"])
        assert [a["text"] for a in got["contest"]["announcements"]] == ["Welcome, players!"]
        add_computer(client, contest_id, host)
        closed = client.post(f"/api/contests/{contest_id}/close", headers=host.headers())
        assert closed.status_code == 200 and closed.json()["status"] == "running"
        got = next_until(lambda c: c["boards"])
        assert [len(b["seats"]) for b in got["contest"]["boards"]] == [2]
        assert not any(gus["secret"] in text or hash_token(gus["secret"]) in text
                       for text in heard)
        socket.send_json({"type": "ping", "id": 1})
        while socket.receive_json()["type"] != "pong":
            pass
    missing = client.get("/api/contests/nope")
    assert missing.status_code == 404 and code(missing) == "unknown_contest"
