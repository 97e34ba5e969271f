"""Players in the browser (issue 23), with two browser contexts as two devices or two people:
an account's games on a second device; an open seat taken from the lobby by another account,
played to the end of a rated game, with both ratings changed at the end and on the
leaderboard; and a push subscription stored by the page's "Notify me", with the "your move"
notification the server queues when the opponent moves.

The server of this module allows more log-ins a minute from one address than the default (every
context here logs in from 127.0.0.1), and queues push notifications without sending them (the
push services cannot be reached from here)."""

from __future__ import annotations

import base64
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from test_web_a11y import violations
from triangles_helpers import draw_line, state_of
from web_helpers import match_id, open_new_game, token_of
from web_support import DESKTOP, PHONE, LiveServer, screenshot, started_with

from triverse.games.triangles import Line, TrianglesState
from triverse.i18n import _, language, pgettext

PASSWORD = "tri-verse-42"
SETTINGS = {"TRIVERSE_RATE_LOGIN": "200/minute", "TRIVERSE_PUSH_SEND": "false"}
"""The environment of this module's server (``docs/server.md``'s settings)."""


@pytest.fixture(scope="module")
def players_server(tmp_path_factory: pytest.TempPathFactory,
                   chromium_path: str) -> Iterator[LiveServer]:
    """A server of this module's own (its SQLite file is read by the push test)."""
    db = tmp_path_factory.mktemp("players") / "triverse.sqlite3"
    live = started_with(db, SETTINGS)
    live.db_path = db  # type: ignore[attr-defined]
    yield live
    live.stop()


def lobby(page: Any, base: str) -> None:
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")


def sign_up(page: Any, base: str, name: str) -> None:
    """Sign up through the header's account button (its log-in dialog leads to sign-up)."""
    lobby(page, base)
    assert page.locator("#account-button").get_attribute("data-logged-in") == "false"
    page.click("#account-button")
    page.click("dialog.login-dialog button[data-value='other']")
    dialog = page.locator("dialog.signup-dialog")
    dialog.locator("#account-name").fill(name)
    dialog.locator("#account-password").fill(PASSWORD)
    dialog.locator("button[data-value='submit']").click()
    page.wait_for_selector(f"body[data-account='{name}']", state="attached")
    assert page.locator("#account-button").inner_text() == name


def log_in(page: Any, base: str, name: str, password: str = PASSWORD) -> None:
    lobby(page, base)
    page.click("#account-button")
    dialog = page.locator("dialog.login-dialog")
    dialog.locator("#account-name").fill(name)
    dialog.locator("#account-password").fill(password)
    dialog.locator("#account-password").press("Enter")
    page.wait_for_selector(f"body[data-account='{name}']", state="attached")


def my_game_ids(page: Any) -> list[str]:
    page.wait_for_selector(".my-games .match-list, .my-games p.muted:not(:has-text('Loading'))")
    ids: list[str] = page.locator(".my-games [data-match]").evaluate_all(
        "items => items.map(i => i.dataset.match)")
    return ids


def rest_move(base: str, mid: str, token: str, action: str, move: int) -> None:
    answer = httpx.post(f"{base}/api/matches/{mid}/actions", headers={"X-Seat-Token": token},
                        json={"action": action, "move": move})
    assert answer.status_code == 200, answer.text


# --- an account on two devices ---------------------------------------------------------------
def test_an_accounts_games_on_a_second_device(players_server: LiveServer,
                                              new_page: Callable[..., Any]) -> None:
    base = players_server.base
    phone, laptop = new_page(), new_page()
    # A guest's game in the first browser, then sign-up: the game is claimed into the account.
    guest = httpx.post(f"{base}/api/matches", json={
        "game": "triangles", "seats": [{"kind": "human"}, {"kind": "novice"}]}).json()
    lobby(phone, base)
    phone.evaluate("""([id, token]) => localStorage.setItem('triverse.seats', JSON.stringify(
        [{match_id: id, seat: 0, token, game: 'triangles', mode: 'computer'}]))""",
                   [guest["match_id"], guest["seats"][0]["token"]])
    sign_up(phone, base, "Ann_devices")
    phone.wait_for_selector(".my-games[data-source='account']")
    # A game made while logged in belongs to the account too.
    own = phone.evaluate("""async () => {
        const session = await (await fetch('/api/session')).json();
        const answer = await fetch('/api/matches', {method: 'POST', headers: {
            'Content-Type': 'application/json', 'X-CSRF-Token': session.csrf},
            body: JSON.stringify({game: 'trident', seats: [{kind: 'human'}, {kind: 'novice'}]})});
        return (await answer.json()).match_id; }""")
    lobby(phone, base)
    on_phone = my_game_ids(phone)
    assert set(on_phone) == {guest["match_id"], own}
    # Both wait for the account's move: the lobby's title counts them, its favicon says so.
    turns = phone.locator(".my-games [data-match]").evaluate_all(
        "items => items.map(i => i.dataset.yourTurn)")
    assert turns == ["true", "true"]
    assert phone.title().startswith("(2) ")
    assert phone.locator("link[rel='icon']").get_attribute("href") == "/favicon-turn.svg"

    # The second device logs in: the same games, none of them known to its storage.
    log_in(laptop, base, "Ann_devices")
    laptop.wait_for_selector(".my-games[data-source='account']")
    assert my_game_ids(laptop) == on_phone
    assert laptop.evaluate("() => localStorage.getItem('triverse.seats')") is None
    # Its Continue opens the seat (a token for this browser), not a spectator's table.
    laptop.click(f".my-games [data-continue='{own}']")
    laptop.wait_for_selector("body[data-board-ready='true']")
    assert laptop.locator("body").get_attribute("data-identity") == "0"
    screenshot(laptop, "players-second-device")

    # A password changed on the laptop logs the phone out.
    laptop.click("#account-button")
    laptop.click("dialog.account-panel-dialog button[data-value='password']")
    dialog = laptop.locator("dialog.password-dialog")
    dialog.locator("#account-old-password").fill(PASSWORD)
    dialog.locator("#account-new-password").fill(PASSWORD + "!")
    dialog.locator("button[data-value='submit']").click()
    laptop.wait_for_selector("dialog.password-dialog", state="detached")
    lobby(phone, base)
    assert phone.locator("#account-button").get_attribute("data-logged-in") == "false"
    # My games is drawn once the browser's seats are read (after the page is ready).
    phone.wait_for_selector(".my-games[data-source='browser']")


# --- an open seat, a rated game to the end ----------------------------------------------------
def open_rated_game(page: Any, base: str) -> str:
    """Open a rated live game of Triangles (24 stars) in the lobby; returns its id once the
    creator's table shows it waiting."""
    dialog = open_new_game(page, base, "triangles", "open")
    dialog.locator("#opt-board").select_option("phone-24")
    assert dialog.locator("input[name='name-1']").is_disabled()  # a free seat: no name
    dialog.locator("#ng-rated").check()
    dialog.locator("#ng-pace").select_option("live")
    dialog.locator("button[data-value='start']").click()
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("body[data-board-ready='true']")
    return match_id(page)


def test_an_open_rated_game_from_the_lobby_to_the_leaderboard(
        players_server: LiveServer, new_page: Callable[..., Any]) -> None:
    base = players_server.base
    ann, bob = new_page(), new_page()
    sign_up(ann, base, "Ann_rated")
    sign_up(bob, base, "Bob_rated")
    lobby(bob, base)   # Bob watches the lobby while Ann opens her game: the list updates live
    bob.wait_for_selector("body[data-lobby-feed='live']")
    mid = open_rated_game(ann, base)
    assert ann.locator("body").get_attribute("data-free-seats") == "1"
    item = bob.locator(f".open-list [data-open='{mid}']")
    item.wait_for()
    assert item.locator("[data-pace='live']").count() == 1
    assert item.locator("[data-rated]").count() == 1
    assert item.locator("[data-player='Ann_rated']").count() == 1
    item.scroll_into_view_if_needed()
    screenshot(bob, "players-open-games")
    item.locator(f"[data-join='{mid}']").click()
    bob.wait_for_url(re.compile(rf"/play/{mid}"))
    bob.wait_for_selector("body[data-board-ready='true']")
    assert bob.locator("body").get_attribute("data-identity") == "1"
    ann.wait_for_selector("body[data-free-seats='0']")  # the game starts at Ann's table
    # Taken: the game leaves the list of every lobby.
    bob.goto(f"{base}/")
    bob.wait_for_selector("body[data-ready='true']")
    bob.wait_for_selector(".open-games[data-count]")
    assert bob.locator(f".open-list [data-open='{mid}']").count() == 0

    # The names at the table lead to the players' profiles.
    bob.goto(f"{base}/play/{mid}")
    bob.wait_for_selector("body[data-board-ready='true']")
    assert bob.locator(".scores a.name[href='/players/Ann_rated']").count() == 1

    # Nobody of the two is on the leaderboard before the game ends.
    names = {"Ann_rated", "Bob_rated"}
    before = httpx.get(f"{base}/api/ratings/triangles?players=2").json()
    assert not names & {e["name"] for e in before["entries"]}

    # Every move through the API but the last, drawn at the table of the player to move.
    pages = {0: ann, 1: bob}
    tokens = {0: token_of(ann, mid, 0), 1: token_of(bob, mid, 1)}
    while True:
        state: TrianglesState = state_of(players_server, mid)
        seat = state.current_player
        assert seat is not None
        line = next(iter(state.legal_actions()))
        after = state.clone()
        after.apply(line)
        if after.is_terminal():
            break
        rest_move(base, mid, tokens[seat], str(line), state.move_number)
    last = pages[seat]
    last.wait_for_selector(f"body[data-move='{state.move_number}'][data-your-turn='true']")
    draw_line(last, line.a, line.b, "type")
    assert isinstance(line, Line)

    # Both tables end with the rating changes: both ratings moved, the winner's up.
    changes = {}
    for seat, page in pages.items():
        page.wait_for_selector("dialog.final-dialog [data-rating-changes='shown']")
        rows = page.locator("dialog.final-dialog [data-rating-changes] tbody tr")
        assert rows.count() == 2
        changes[seat] = {int(r.get_attribute("data-seat")): float(r.get_attribute("data-delta"))
                         for r in rows.all()}
    screenshot(ann, "players-rating-changes")
    assert changes[0] == changes[1]
    assert all(delta != 0 for delta in changes[0].values())
    result = players_server.state(mid).result()
    winner = min(range(2), key=lambda s: result.ranks[s])
    assert changes[0][winner] > 0 > changes[0][1 - winner]

    # The leaderboard lists both with their new ratings, and the computer levels' anchors.
    board = httpx.get(f"{base}/api/ratings/triangles?players=2").json()
    ann.goto(f"{base}/leaderboard/triangles?players=2")
    ann.wait_for_selector(".leaderboard-table")
    for name in sorted(names):
        entry = next(e for e in board["entries"] if e["name"] == name)
        row = ann.locator(f".leaderboard-table tr[data-name='{name}']")
        assert float(row.locator("[data-rating]").get_attribute("data-rating")) == entry["rating"]
        assert entry["games"] == 1
    assert ann.locator(".leaderboard-table tr[data-computer='true']").count() >= 1
    screenshot(ann, "players-leaderboard")
    # And Bob's profile, reached from the leaderboard, shows the game.
    ann.click(".leaderboard-table a[href='/players/Bob_rated']")
    ann.wait_for_selector(".profile[data-profile='Bob_rated']")
    assert ann.locator(f".profile-recent [data-match='{mid}']").count() == 1
    assert ann.locator(".profile-ratings tr[data-game='triangles']").count() == 1
    screenshot(ann, "players-profile")


def open_game(page: Any, base: str, board: str = "phone-24") -> str:
    """Open a seat of Triangles in the lobby (not rated); returns the match id once the
    creator's table shows."""
    dialog = open_new_game(page, base, "triangles", "open")
    dialog.locator("#opt-board").select_option(board)
    dialog.locator("button[data-value='start']").click()
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("body[data-board-ready='true']")
    return match_id(page)


def test_guests_open_withdraw_and_take_seats(players_server: LiveServer,
                                             new_page: Callable[..., Any]) -> None:
    """Without accounts: a guest's open game shows live in another guest's lobby, leaves it
    when withdrawn, and a second one is taken with one click (the seat's token kept)."""
    base = players_server.base
    host, other = new_page(), new_page()
    lobby(other, base)
    other.wait_for_selector("body[data-lobby-feed='live']")
    first = open_game(host, base)
    assert host.locator("body").get_attribute("data-free-seats") == "1"
    other.locator(f".open-list [data-open='{first}']").wait_for()
    # The creator's lobby shows it as its own: its table, and Withdraw instead of Take a seat.
    lobby(host, base)
    own = host.locator(f".open-list [data-open='{first}']")
    own.wait_for()
    assert own.locator("[data-join]").count() == 0
    own.locator(f"[data-withdraw='{first}']").click()
    other.locator(f".open-list [data-open='{first}']").wait_for(state="detached")
    host.locator(f".open-list [data-open='{first}']").wait_for(state="detached")
    assert host.evaluate("() => localStorage.getItem('triverse.seats')") == "[]"

    second = open_game(host, base)
    other.locator(f"[data-join='{second}']").click()
    other.wait_for_url(re.compile(rf"/play/{second}"))
    other.wait_for_selector("body[data-board-ready='true']")
    assert other.locator("body").get_attribute("data-identity") == "1"
    assert token_of(other, second, 1)
    host.wait_for_selector("body[data-free-seats='0']")
    # The game started: the creator moves first, at its table.
    host.wait_for_selector("body[data-your-turn='true']")


# --- your move: a push subscription, and the notification the server queues --------------------
def subscription_keys() -> dict[str, str]:
    """A browser's push keys as PushSubscription.toJSON() gives them: a P-256 public key and 16
    bytes of auth secret, base64url without padding."""
    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    public = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64(public), "auth": b64(os.urandom(16))}


FAKE_PUSH = """([endpoint, keys]) => {
  // Headless Chromium reaches no push service: the page's own code path runs to the browser's
  // PushManager.subscribe, which answers with this subscription.
  let current = null;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    window.pushOptions = options;
    current = { endpoint, options, toJSON: () => ({ endpoint, expirationTime: null, keys }),
                unsubscribe: async () => { current = null; return true; } };
    return current;
  };
}"""


def test_notify_me_stores_a_subscription_and_a_move_queues_a_notification(
        players_server: LiveServer, browser: Any, new_page: Callable[..., Any]) -> None:
    base = players_server.base
    context = browser.new_context(viewport=DESKTOP, locale="fr-FR")
    context.grant_permissions(["notifications"], origin=base)
    cleo, dan = new_page(context=context), new_page()
    endpoint = "https://fcm.googleapis.com/fcm/send/cleo-test-subscription"
    keys = subscription_keys()
    cleo.add_init_script(f"({FAKE_PUSH})({json.dumps([endpoint, keys])})")
    sign_up(cleo, base, "Cleo_push")
    sign_up(dan, base, "Dan_push")

    # Cleo opens a correspondence game; Dan takes the other seat from the lobby.
    dialog = open_new_game(cleo, base, "triangles", "open")
    dialog.locator("#opt-board").select_option("phone-24")
    dialog.locator("#ng-pace").select_option("correspondence")
    dialog.locator("button[data-value='start']").click()
    cleo.wait_for_url(re.compile(r"/play/"))
    mid = match_id(cleo)
    lobby(dan, base)
    dan.locator(f"[data-join='{mid}']").click()
    dan.wait_for_selector("body[data-board-ready='true']")

    # "Notify me" at Cleo's table: permission (granted), the service worker, the subscription.
    notify = cleo.locator("button[data-action='notify']")
    notify.wait_for()
    notify.click()
    cleo.wait_for_selector("body[data-push='subscribed']")
    assert notify.is_hidden()
    scope = cleo.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == f"{base}/"
    sent_key = cleo.evaluate(
        "() => Array.from(new Uint8Array(window.pushOptions.applicationServerKey))")
    public = httpx.get(f"{base}/api/push/key").json()["public_key"]
    assert bytes(sent_key) == base64.urlsafe_b64decode(public + "=" * (-len(public) % 4))
    db = sqlite3.connect(players_server.db_path)  # type: ignore[attr-defined]
    stored = db.execute("SELECT endpoint, p256dh, auth, lang FROM push_subscriptions").fetchall()
    assert (endpoint, keys["p256dh"], keys["auth"], "fr") in stored

    # Moves until it is Dan's turn, then Dan moves: Cleo's move, told by a notification.
    tokens = {0: token_of(cleo, mid, 0), 1: token_of(dan, mid, 1)}
    state = state_of(players_server, mid)
    while state.current_player != 1:
        rest_move(base, mid, tokens[0], str(next(iter(state.legal_actions()))), state.move_number)
        state = state_of(players_server, mid)
    dan.wait_for_selector(f"body[data-move='{state.move_number}'][data-your-turn='true']")
    cues = int(cleo.locator("body").get_attribute("data-turn-cues") or 0)
    line = next(iter(state.legal_actions()))
    draw_line(dan, line.a, line.b, "type")
    # Cleo's tab says it: the title, the favicon, the sound's cue.
    cleo.wait_for_selector("body[data-your-move='true']")
    assert cleo.locator("link[rel='icon']").get_attribute("href") == "/favicon-turn.svg"
    assert int(cleo.locator("body").get_attribute("data-turn-cues") or 0) == cues + 1
    outbox = cleo.evaluate("async () => (await fetch('/api/push/outbox')).json()")
    entries = outbox if isinstance(outbox, list) else outbox.get("notifications", outbox)
    mine = [e["payload"] for e in entries if e["payload"].get("match_id") == mid]
    assert mine, outbox
    payload = mine[-1]
    assert payload["type"] == "your_move" and payload["url"] == f"/play/{mid}?seat=0"
    assert payload["move"] == state.move_number + 1 and payload["game"] == "triangles"
    assert payload["title"] and payload["body"]
    # The same notification in the server's push queue, for Cleo's subscription, in French.
    queued = [json.loads(text) for text, in db.execute(
        "SELECT q.payload FROM push_queue q JOIN push_subscriptions s"
        " ON q.subscription_id = s.id WHERE s.endpoint = ?", (endpoint,))]
    assert payload in queued
    with language("fr"):   # written in the subscription's language
        assert payload["title"] == pgettext("push", "Your turn in {game}").format(
            game=pgettext("game", "Triangles"))
    assert payload["title"] != "Your turn in Triangles"
    # Dan subscribed to nothing: nothing queued for him.
    assert dan.evaluate("async () => (await fetch('/api/push/outbox')).json()") in ([], {
        "notifications": []})

    # Logged out, this browser is told nothing more of the account's games.
    cleo.click("#account-button")
    cleo.click("dialog.account-panel-dialog button[data-value='logout']")
    cleo.wait_for_selector("body[data-account='']", state="attached")
    stored = db.execute("SELECT endpoint FROM push_subscriptions").fetchall()
    assert (endpoint,) not in stored
    db.close()
    context.close()


def test_a_deleted_account_shows_as_deleted_player(players_server: LiveServer,
                                                   new_page: Callable[..., Any]) -> None:
    base = players_server.base
    eve, fay = new_page(), new_page()
    sign_up(eve, base, "Eve_leaves")
    sign_up(fay, base, "Fay_stays")
    dialog = open_new_game(eve, base, "triangles", "open")
    dialog.locator("#opt-board").select_option("phone-24")
    dialog.locator("button[data-value='start']").click()
    eve.wait_for_url(re.compile(r"/play/"))
    mid = match_id(eve)
    lobby(fay, base)
    fay.locator(f"[data-join='{mid}']").click()
    fay.wait_for_selector("body[data-board-ready='true']")

    # Eve deletes her account (her password confirms it).
    lobby(eve, base)
    eve.click("#account-button")
    eve.click("dialog.account-panel-dialog button[data-value='delete']")
    dialog = eve.locator("dialog.delete-dialog")
    dialog.locator("#account-delete-password").fill("wrong password")
    dialog.locator("button[data-value='submit']").click()
    dialog.locator(".form-error:not(:empty)").wait_for()   # refused: the dialog stays open
    dialog.locator("#account-delete-password").fill(PASSWORD)
    dialog.locator("button[data-value='submit']").click()
    eve.wait_for_selector("body[data-account='']", state="attached")
    assert eve.locator("#account-button").get_attribute("data-logged-in") == "false"
    # Fay's table names her opponent "deleted player", with no link to a profile.
    fay.reload()
    fay.wait_for_selector("body[data-board-ready='true']")
    cell = fay.locator(".scores tr[data-seat='0'] .name")
    assert cell.inner_text() == "deleted player"
    assert fay.locator(".scores a[href^='/players/Eve']").count() == 0
    assert httpx.get(f"{base}/api/players/Eve_leaves").status_code == 404


def test_the_account_panel_in_each_language(players_server: LiveServer, browser: Any,
                                            new_page: Callable[..., Any]) -> None:
    """The account's dialogs are translated (the button's words, and its log-in form)."""
    for lang, locale in (("pl", "pl-PL"), ("fr", "fr-FR")):
        context = browser.new_context(viewport=DESKTOP, locale=locale)
        page = new_page(context=context)
        lobby(page, players_server.base)
        with language(lang):
            assert page.locator("#account-button").inner_text() == _("Log in") != "Log in"
        page.click("#account-button")
        title = page.locator("dialog.login-dialog h2").inner_text()
        with language(lang):
            assert title == _("Log in")
        page.keyboard.press("Escape")
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_on_the_players_pages(players_server: LiveServer, browser: Any,
                                               new_page: Callable[..., Any],
                                               viewport: dict[str, int]) -> None:
    """The account's dialogs, the lobby's open games and My games, a profile and a
    leaderboard: no axe-core violation, and on a phone no horizontal scrolling."""
    base = players_server.base
    tag = "d" if viewport is DESKTOP else "p"
    host, guest = new_page(viewport), new_page(viewport)
    found = []
    lobby(guest, base)
    guest.click("#account-button")
    guest.wait_for_selector("dialog.login-dialog")
    found += violations(guest, "log-in dialog")
    guest.click("dialog.login-dialog button[data-value='other']")
    guest.wait_for_selector("dialog.signup-dialog")
    found += violations(guest, "sign-up dialog")
    guest.keyboard.press("Escape")
    sign_up(host, base, f"Gil_axe_{tag}")
    dialog = open_new_game(host, base, "triangles", "open")
    dialog.locator("#ng-rated").check()
    found += violations(host, "new game, open and rated")
    dialog.locator("button[data-value='start']").click()
    host.wait_for_url(re.compile(r"/play/"))
    host.wait_for_selector("body[data-board-ready='true']")
    found += violations(host, "a table waiting for players")
    lobby(host, base)
    host.wait_for_selector(".open-list [data-open]")
    host.wait_for_selector(".my-games[data-source='account'] [data-match]")
    found += violations(host, "lobby with open games and My games")
    if viewport is PHONE:
        assert not host.evaluate("() => document.documentElement.scrollWidth > innerWidth")
        screenshot(host, "players-lobby-390x844")
    host.click("#account-button")
    host.wait_for_selector("dialog.account-panel-dialog")
    found += violations(host, "account panel")
    host.keyboard.press("Escape")
    for path in (f"/players/Gil_axe_{tag}", "/leaderboard/triangles?players=2",
                 "/players/nobody_here"):
        host.goto(base + path)
        host.wait_for_selector("body[data-ready='true']")
        found += violations(host, path)
        if viewport is PHONE:
            wide = host.evaluate("() => document.documentElement.scrollWidth > innerWidth")
            assert not wide, f"{path} scrolls sideways on a phone"
    assert not found, "\n".join(found)
