"""Contests in the browser (issue 24): a small Trident contest run end to end through the
pages, as its host and its players would, with short turns, and a guest's personal link
bringing their entry and board back on another device.

The server of this module lets a contest's sign-up close a second after its creation and its
turns last a few seconds (``contest_min_signup``, ``contest_min_turn``), reads the due
contests and deadlines often, and allows more requests a minute from one address than the
defaults (every browser context here comes from 127.0.0.1)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from test_web_a11y import violations
from test_web_players import PASSWORD, sign_up
from web_support import PHONE, LiveServer, screenshot, started_with
from web_trident_helpers import choose, play_through_ui, state_of

from triverse.core.fairness import commitment

TURN = 8
"""Seconds a turn of the contest's boards lasts."""

SETTINGS = {"TRIVERSE_CONTEST_MIN_SIGNUP": "1", "TRIVERSE_CONTEST_MIN_TURN": "2",
            "TRIVERSE_CONTEST_POLL": "1", "TRIVERSE_DEADLINE_POLL": "1",
            "TRIVERSE_RATE_LOGIN": "200/minute", "TRIVERSE_RATE_CONTEST": "200/minute",
            "TRIVERSE_RATE_CONTEST_READ": "2000/minute", "TRIVERSE_PUSH_SEND": "false"}
"""The environment of this module's server (``docs/server.md``'s settings)."""


@pytest.fixture(scope="module")
def contest_server(tmp_path_factory: pytest.TempPathFactory,
                   chromium_path: str) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("contests") / "triverse.sqlite3"
    live = started_with(db, SETTINGS)
    yield live
    live.stop()


def open_contest(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_selector("section.contest-page[data-status]")


def entrants(page: Any) -> int:
    return int(page.locator("section.contest-page").get_attribute("data-entrants") or 0)


def wait_entrants(page: Any, n: int) -> None:
    page.wait_for_selector(f"section.contest-page[data-entrants='{n}']")


def create_in_form(page: Any, base: str) -> str:
    """The host's New contest form: a Trident contest, boards of 4, short turns, the seed's
    rewards. Returns the contest's address."""
    page.goto(f"{base}/contests")
    page.wait_for_selector("body[data-ready='true']")
    assert not violations(page, "/contests")
    page.fill("#ct-title", "Winter Trident cup")
    # A game without a time-out rule has no turn clock: the form says so.
    page.select_option("#ct-game", "triangles")
    assert page.locator("[data-no-timeout]").is_visible()
    assert page.locator("#ct-hours").is_hidden()
    page.select_option("#ct-game", "trident")
    assert page.locator("#opt-variant").is_visible()  # the game's options, as New game has them
    assert not page.locator("#opt-time_limit").count()  # the time per turn sets it
    page.select_option("#ct-board", "4")
    page.fill("#ct-hours", "0")
    page.fill("#ct-minutes", "0")
    page.fill("#ct-seconds", str(TURN))
    page.fill("#ct-rewards", "300, 250, 200, 150")
    page.fill("#ct-reward-name", "WRZ$")
    assert page.locator("[data-no-timeout]").is_hidden()
    page.click("[data-create-contest]")
    page.wait_for_url(re.compile(r"/contests/[^/]+$"))
    page.wait_for_selector("section.contest-page[data-status='signup']")
    url: str = page.url
    return url


def guest_signs_up(page: Any, url: str, name: str, keyboard: bool = False) -> str:
    """A guest signs up with a name (typed, then Enter, with ``keyboard``); returns the
    personal link shown."""
    open_contest(page, url)
    if keyboard:
        page.focus("#ct-name")
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    else:
        page.fill("#ct-name", name)
        page.click("[data-signup]")
    page.wait_for_selector("[data-my-state='signed-up']")
    link: str = page.locator("[data-personal-link]").input_value()
    return link


def board_rows(page: Any) -> dict[int, list[dict[str, str]]]:
    """Every board's seats as the page shows them (posting order)."""
    found: dict[int, list[dict[str, str]]] = page.evaluate("""() => Object.fromEntries(
        [...document.querySelectorAll('.contest-board')].map((b) => [b.dataset.board,
          [...b.querySelectorAll('tbody tr')].map((r) => ({entry: r.dataset.entry,
            name: r.dataset.name, place: r.querySelector('[data-place]').dataset.place,
            reward: r.querySelector('[data-reward]').textContent,
            removed: String(Boolean(r.querySelector('[data-removed]')))}))]))""")
    return {int(k): v for k, v in found.items()}


def play_a_turn(page: Any, server: LiveServer) -> None:
    """Play a move at the page's table when its turn comes (again at the next turn, should the
    clock run out under the test's feet)."""
    mid = re.search(r"/play/([^/?#]+)", page.url)[1]  # type: ignore[index]
    for _ in range(3):
        page.wait_for_function("() => document.body.dataset.yourTurn === 'true'",
                               timeout=4 * TURN * 1000)
        before = int(page.locator("body").get_attribute("data-move") or 0)
        chosen = choose(state_of(server, mid))
        play_through_ui(page, chosen, "type")
        page.wait_for_function(f"() => Number(document.body.dataset.move) > {before}",
                               timeout=2 * TURN * 1000)
        if str(chosen) in logged_actions(server, mid):
            return
    raise AssertionError("no move could be played in time")


def logged_actions(server: LiveServer, mid: str) -> list[str]:
    """The notations of the match's accepted actions, as the server logged them."""
    service = server.app.state.service

    async def read() -> list[str]:
        live = await service.live(mid, fresh=True)
        return [entry.action for entry in live.log]

    actions: list[str] = server.call(read)
    return actions


def remove(page: Any, entry: str) -> None:
    page.click(f"[data-remove='{entry}']")
    dialog = page.locator("dialog.confirm-dialog")
    dialog.locator("button[data-value='yes']").click()
    page.wait_for_selector(
        f".entrant-list li[data-entry='{entry}'] [data-removed], .notice.error")
    errors = page.locator(".notice.error")
    assert not errors.count(), errors.all_inner_texts()


def hosted_by_fetch(host: Any, base: str, name: str, title: str) -> str:
    """``host`` signs up as ``name`` and creates a Trident contest ``title`` from its page's
    script (sign-up open an hour); returns the contest's link."""
    sign_up(host, base, name)
    link: str = host.evaluate("""async (title) => {
        const session = await (await fetch('/api/session')).json();
        const answer = await fetch('/api/contests', {method: 'POST', headers: {
            'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf},
            body: JSON.stringify({title, game: 'trident',
              signup_closes: new Date(Date.now() + 3600e3).toISOString()})});
        return (await answer.json()).link; }""", title)
    return link


def test_a_small_trident_contest_end_to_end(contest_server: LiveServer,
                                            new_page: Callable[..., Any]) -> None:
    base = contest_server.base
    host = new_page()
    sign_up(host, base, "Hosta")
    url = create_in_form(host, base)
    host.wait_for_selector("[data-host='add-computer']")
    assert host.locator("[data-fact='rewards']").inner_text().count("WRZ$") == 4
    commitment_shown = host.locator("[data-commitment]").inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment_shown)
    # The host adds four computer players (novices).
    host.select_option("#ct-computer-level", "novice")
    for n in range(1, 5):
        host.click("[data-host='add-computer']")
        wait_entrants(host, n)
    # Three people sign up: an account with one click, two guests with a name.
    ann = new_page()
    sign_up(ann, base, "Ann_contest")
    open_contest(ann, url)
    ann.click("[data-signup]")
    ann.wait_for_selector("[data-my-state='signed-up']")
    guests = [new_page(), new_page()]
    links = [guest_signs_up(guests[0], url, "Bob"),
             guest_signs_up(guests[1], url, "Cid", keyboard=True)]
    assert all(f"{url}#me=" in link for link in links)
    wait_entrants(host, 7)
    # The host's announcement reaches the players' pages live.
    host.fill("#ct-announcement", "Boards are drawn in a minute: good luck!")
    host.click("[data-host='announce']")
    for page in (ann, *guests):
        page.wait_for_selector(".announcement-list li:has-text('good luck!')")
    screenshot(host, "contest-signup")
    assert not violations(host, "the contest in sign-up, for its host")
    # The host closes sign-up: boards of 4 and 3, the draw's seed and salt revealed.
    host.click("[data-host='close']")
    host.wait_for_selector("section.contest-page[data-status='running']")
    boards = board_rows(host)
    assert sorted(len(seats) for seats in boards.values()) == [3, 4]
    seed = int(host.locator("[data-seed]").inner_text())
    salt = host.locator("[data-salt]").inner_text()
    cid = url.rsplit("/", 1)[1]
    assert commitment(salt, {"scheme": "triverse-contest-1", "contest": cid,
                             "seed": seed}) == commitment_shown
    screenshot(host, "contest-running")

    # Ann plays a move on her board's table, from the contest page's Play link.
    open_contest(ann, url)
    ann.click("[data-my-play]")
    ann.wait_for_url(re.compile(r"/play/"))
    ann.wait_for_selector("body[data-board-ready='true']")
    play_a_turn(ann, contest_server)

    # Bob misses a turn: his board's table says so.
    bob = new_page()
    open_contest(bob, links[0])
    bob.wait_for_selector("[data-my-state='playing']")
    bob.click(".contest-board:has(tr.mine) [data-watch]")
    bob.wait_for_selector(".feed li:has-text('Bob ran out of time')", timeout=5 * TURN * 1000)

    # The contest's page counts it on his row.
    open_contest(host, url)
    missed = host.locator(".contest-board tr[data-name='Bob'] [data-missed]")
    missed.wait_for()
    assert int(missed.get_attribute("data-missed") or 0) >= 1
    assert re.fullmatch(r"missed \d+ turns?", missed.inner_text().strip().lower())

    # The host removes the three people: their seats are passed, the computers finish.
    people = [e for seats in boards.values() for e in seats
              if e["name"] in ("Ann_contest", "Bob", "Cid")]
    for e in people:
        remove(host, e["entry"])
    host.wait_for_selector("section.contest-page[data-status='finished']", timeout=60_000)
    screenshot(host, "contest-finished")
    assert not violations(host, "the contest finished")
    final = board_rows(host)
    for seats in final.values():
        for s in seats:
            if s["removed"] == "true":
                assert s["place"] == "" and s["reward"] == "–"
            else:
                assert int(s["place"]) >= 1 and s["reward"].endswith("WRZ$")
    # The overall table: rewards first, then scores.
    table = host.evaluate("""() => [...document.querySelectorAll('.overall-table tbody tr')]
        .map((r) => ({reward: Number(r.querySelector('[data-reward]').dataset.reward || -1),
                      score: Number(r.querySelector('[data-score]').dataset.score || 0)}))""")
    assert len(table) == 7
    assert table == sorted(table, key=lambda r: (-r["reward"], -r["score"]))
    assert any(r["reward"] == 300 for r in table)
    # Ann's own page says she was removed.
    open_contest(ann, url)
    ann.wait_for_selector("[data-my-state='removed']")


def test_a_guests_personal_link_brings_back_their_board(contest_server: LiveServer,
                                                       new_page: Callable[..., Any]) -> None:
    base = contest_server.base
    with httpx.Client(base_url=base) as client:
        csrf = client.post("/api/accounts", json={"name": "Host_link", "password": PASSWORD}
                           ).json()["csrf"]
        headers = {"X-CSRF-Token": csrf}
        created = client.post("/api/contests", headers=headers, json={
            "title": "Links", "game": "trident", "players_per_board": 2, "turn_seconds": 600,
            "signup_closes": (datetime.now(UTC) + timedelta(days=1)).isoformat(),
            "rewards": [10], "reward_name": "stars"})
        assert created.status_code == 201, created.text
        url = base + created.json()["link"]
        link = guest_signs_up(new_page(), url, "Dee")
        assert client.post(f"/api/contests/{created.json()['id']}/computers", headers=headers,
                           json={"kind": "novice"}).status_code == 201
        assert client.post(f"/api/contests/{created.json()['id']}/close",
                           headers=headers).status_code == 200
    # Another device (a phone): the personal link finds the entry and its board.
    other = new_page(PHONE)
    open_contest(other, link)
    assert "#me=" not in other.url  # the secret leaves the address bar, kept in the browser
    other.wait_for_selector("[data-my-state='playing']")
    secret = link.split("#me=", 1)[1]
    play = other.locator("[data-my-play]").get_attribute("href") or ""
    assert re.fullmatch(r"/play/[^?#]+\?seat=[01]#" + re.escape(secret), play)
    assert other.locator("details.personal-link [data-personal-link]").input_value() == link
    assert not violations(other, "a contest's page on a phone, for an entrant")
    # The seat is this browser's now, as any seat: the lobby's My games lists it.
    stored = other.evaluate("() => JSON.parse(localStorage.getItem('triverse.seats') || '[]')")
    assert [s["token"] for s in stored] == [secret]
    other.click("[data-my-play]")
    other.wait_for_selector("body[data-board-ready='true']")
    assert other.locator("body").get_attribute("data-connection") != "refused"


def test_withdrawing_and_cancelling_during_sign_up(contest_server: LiveServer,
                                                  new_page: Callable[..., Any]) -> None:
    base = contest_server.base
    host = new_page()
    link = hosted_by_fetch(host, base, "Host_cancel", "Called off")
    url = base + link
    open_contest(host, url)
    guest = new_page()
    guest_signs_up(guest, url, "Eve")
    wait_entrants(host, 1)
    # The guest withdraws: the entry goes, and the sign-up form is back.
    guest.click("[data-withdraw]")
    guest.wait_for_selector("form.contest-signup")
    wait_entrants(host, 0)
    assert guest.evaluate("() => localStorage.getItem('triverse.contests')") == "{}"
    # The host cancels, asked first: everyone's page says so, and the list files it.
    host.click("[data-host='cancel']")
    host.locator("dialog.confirm-dialog button[data-value='yes']").click()
    for page in (host, guest):
        page.wait_for_selector("section.contest-page[data-status='cancelled']")
    assert host.locator("section.contest-host").is_hidden()
    assert guest.locator("section.contest-me").is_hidden()
    host.goto(f"{base}/contests")
    host.wait_for_selector("body[data-ready='true']")
    listed = host.locator(f"[data-group='cancelled'] li:has(a[href='{link}'])")
    assert listed.count() == 1 and listed.locator("[data-hosting]").count() == 1


def test_the_page_reads_the_contest_over_rest_while_its_socket_is_closed(
        contest_server: LiveServer, new_page: Callable[..., Any]) -> None:
    base = contest_server.base
    host = new_page()
    link = hosted_by_fetch(host, base, "Host_polled", "No socket")
    # Every websocket of the contest's is closed as soon as it opens: the page reads the
    # contest over REST each time (sockets.js's LiveFeed), and a change still shows.
    page = new_page()
    page.route_web_socket("**/ws/contests/**", lambda ws: ws.close())
    open_contest(page, base + link)
    page.wait_for_selector("body[data-contest-feed='polled']")
    assert page.locator("section.contest-page").get_attribute("data-status") == "signup"
    guest_signs_up(new_page(), base + link, "Pol")
    wait_entrants(page, 1)  # read again at the next attempt to connect
    assert page.locator("body").get_attribute("data-contest-feed") == "polled"
