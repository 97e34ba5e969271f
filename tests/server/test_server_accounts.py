"""Accounts and sessions (issue 23, first part): sign-up, log-in and out across browsers, the
session cookie, CSRF on every change made with the cookie, password changes and account
deletion, log-in rate limits per address and per account, argon2id hashes."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from test_server_postgres import pg_url  # noqa: F401  (a fixture)

from triverse.server.accounts import CSRF_HEADER, SESSION_COOKIE
from triverse.server.app import create_app

PASSWORD = "correct horse battery"


def sign_up(client: TestClient, name: str = "Zoë", password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


def log_in(client: TestClient, name: str = "Zoë", password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def code(answer: Any) -> str:
    value: str = answer.json()["error"]["code"]
    return value


def test_sign_up_logs_in_with_an_httponly_samesite_cookie(make: Any, db_url: str) -> None:
    browser = make()
    answer = browser.post("/api/accounts", json={"name": "Zoë", "password": PASSWORD})
    assert answer.status_code == 201
    body = answer.json()
    assert body["account"]["name"] == "Zoë" and len(body["csrf"]) >= 32
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP here; over HTTPS, see below
    assert browser.get("/api/session").json() == body
    # Only an argon2id hash is stored, never the password; only the cookie's sha256.
    engine = create_engine(db_url)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT password_hash FROM accounts")).scalar()
        token_hash = connection.execute(text("SELECT token_hash FROM sessions")).scalar()
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert token_hash != browser.cookies[SESSION_COOKIE] and len(token_hash) == 64


def test_the_cookie_is_secure_over_https(make: Any) -> None:
    browser = make("https://testserver")
    answer = browser.post("/api/accounts", json={"name": "Zoë", "password": PASSWORD})
    assert "Secure" in answer.headers["set-cookie"]


@pytest.mark.parametrize(("name", "password", "why"), [
    ("ab", PASSWORD, "a name is 3 to 24 letters"),
    ("x" * 25, PASSWORD, "a name is 3 to 24 letters"),
    ("zo ë", PASSWORD, "a name is 3 to 24 letters"),
    ("-zoe", PASSWORD, "a name is 3 to 24 letters"),
    ("zoe", "short", "a password is 8 to 128 characters"),
    ("zoe", "p" * 129, "a password is 8 to 128 characters"),
])
def test_sign_up_refuses_bad_names_and_passwords(make: Any, name: str, password: str,
                                                 why: str) -> None:
    browser = make()
    answer = browser.post("/api/accounts", json={"name": name, "password": password})
    assert answer.status_code == 422 and code(answer) == "bad_request"
    assert why in answer.json()["error"]["message"]
    assert SESSION_COOKIE not in browser.cookies
    assert browser.get("/api/session").status_code == 401


def test_a_name_is_taken_whatever_its_case(make: Any) -> None:
    sign_up(make(), "Zoë")
    answer = make().post("/api/accounts", json={"name": "ZOË", "password": PASSWORD})
    assert answer.status_code == 409 and code(answer) == "name_taken"


def test_one_account_logs_in_on_two_browsers(make: Any) -> None:
    first, second = make(), make()
    made = sign_up(first)
    assert second.get("/api/session").status_code == 401
    answer = log_in(second, "zoË")  # the name's case does not matter
    assert answer.status_code == 200
    assert answer.json()["account"] == made["account"]
    assert answer.json()["csrf"] != made["csrf"]  # a session of its own
    assert first.get("/api/session").json()["account"]["name"] == "Zoë"


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(make: Any) -> None:
    sign_up(make())
    browser = make()
    wrong = log_in(browser, "Zoë", "not the password")
    unknown = log_in(browser, "Nobody", PASSWORD)
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"error": {
        "code": "bad_credentials", "message": "the name or the password is wrong"}}
    assert SESSION_COOKIE not in browser.cookies


def test_log_out_needs_the_csrf_token(make: Any) -> None:
    browser = make()
    made = sign_up(browser)
    refused = browser.delete("/api/session")
    assert refused.status_code == 403 and code(refused) == "bad_csrf"
    forged = browser.delete("/api/session", headers={CSRF_HEADER: "x" * 43})
    assert forged.status_code == 403 and code(forged) == "bad_csrf"
    assert browser.get("/api/session").status_code == 200  # still logged in
    done = browser.delete("/api/session", headers={CSRF_HEADER: made["csrf"]})
    assert done.status_code == 204
    assert browser.get("/api/session").status_code == 401
    assert code(browser.get("/api/session")) == "not_logged_in"


def test_a_stolen_csrf_token_is_useless_without_the_cookie(make: Any) -> None:
    victim, attacker = make(), make()
    made = sign_up(victim)
    sign_up(attacker, "Mallory")
    # The attacker's own session with the victim's token: refused, the victim still in.
    answer = attacker.delete("/api/session", headers={CSRF_HEADER: made["csrf"]})
    assert answer.status_code == 403 and code(answer) == "bad_csrf"
    assert victim.get("/api/session").status_code == 200


def test_changing_the_password_ends_every_other_session(make: Any) -> None:
    first, second = make(), make()
    made = sign_up(first)
    assert log_in(second).status_code == 200
    body = {"password": PASSWORD, "new_password": "a brand new secret"}
    assert first.post("/api/session/password", json=body).status_code == 403  # no CSRF
    wrong = first.post("/api/session/password", headers={CSRF_HEADER: made["csrf"]},
                       json={**body, "password": "not the password"})
    assert wrong.status_code == 401 and code(wrong) == "bad_credentials"
    changed = first.post("/api/session/password", headers={CSRF_HEADER: made["csrf"]},
                         json=body)
    assert changed.status_code == 200
    assert changed.json()["csrf"] != made["csrf"]
    assert first.get("/api/session").status_code == 200  # this browser has a new session
    assert second.get("/api/session").status_code == 401  # the other one is logged out
    assert log_in(make()).status_code == 401
    assert log_in(make(), password="a brand new secret").status_code == 200


def test_deleting_an_account_frees_its_name(make: Any, db_url: str) -> None:
    browser, other = make(), make()
    made = sign_up(browser)
    assert log_in(other).status_code == 200
    body = {"password": PASSWORD}
    assert browser.request("DELETE", "/api/account", json=body).status_code == 403
    wrong = browser.request("DELETE", "/api/account", headers={CSRF_HEADER: made["csrf"]},
                            json={"password": "not the password"})
    assert wrong.status_code == 401
    done = browser.request("DELETE", "/api/account", headers={CSRF_HEADER: made["csrf"]},
                           json=body)
    assert done.status_code == 204
    assert browser.get("/api/session").status_code == 401
    assert other.get("/api/session").status_code == 401
    assert log_in(make()).status_code == 401
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM sessions")).scalar() == 0
    engine.dispose()
    sign_up(make(), "zoë")  # the name is free again


def test_one_account_cannot_change_or_delete_another(make: Any) -> None:
    zoe, mallory = make(), make()
    sign_up(zoe)
    mine = sign_up(mallory, "Mallory")
    # Mallory's session and token act on Mallory's account only, whatever the body names.
    answer = mallory.request("DELETE", "/api/account", headers={CSRF_HEADER: mine["csrf"]},
                             json={"password": PASSWORD})
    assert answer.status_code == 204
    assert log_in(make()).status_code == 200  # Zoë's account is untouched
    assert zoe.get("/api/session").json()["account"]["name"] == "Zoë"


def test_log_ins_are_limited_per_address(make: Any) -> None:
    browser = make(rate_login="3/minute")
    sign_up(browser)  # counts as one attempt
    assert log_in(browser, password="wrong password").status_code == 401
    assert log_in(browser).status_code == 200
    refused = log_in(browser)
    assert refused.status_code == 429 and code(refused) == "rate_limited"
    assert "log-in and sign-up attempts from your address" in refused.json()["error"]["message"]
    assert int(refused.headers["Retry-After"]) >= 1


def test_failed_log_ins_are_limited_per_account(make: Any) -> None:
    browser = make(rate_login="100/minute", rate_login_name="2/minute")
    sign_up(browser)
    sign_up(make(), "Other")
    for _ in range(2):
        assert log_in(browser, "ZOË", "guessing wrong").status_code == 401
    refused = log_in(browser)  # even the right password waits now
    assert refused.status_code == 429
    assert "failed log-ins on this account" in refused.json()["error"]["message"]
    assert log_in(browser, "Other").status_code == 200  # another account is not locked


def test_accounts_on_postgresql(pg_url: str) -> None:  # noqa: F811
    with TestClient(create_app(pg_url, bot_delay=0, bot_workers=1)) as first:
        second = TestClient(first.app)
        made = sign_up(first)
        taken = second.post("/api/accounts", json={"name": "ZOË", "password": PASSWORD})
        assert taken.status_code == 409 and code(taken) == "name_taken"
        assert log_in(second, "zoë").status_code == 200
        assert second.get("/api/session").json()["account"] == made["account"]
        assert first.delete("/api/session", headers={CSRF_HEADER: made["csrf"]}
                            ).status_code == 204
        assert first.get("/api/session").status_code == 401
        assert second.get("/api/session").status_code == 200
