"""Translations (``triverse.i18n``, docs/i18n.md): the catalogues match the code, the server
hands them to the browser and writes its pages in the asked language."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from triverse.i18n import (
    LANGUAGES,
    browser_catalogue,
    game_message,
    language,
    language_from_env,
    negotiate,
    ngettext,
    set_language,
)
from triverse.i18n.catalogue import all_texts, browser_texts, dynamic_calls, problems
from triverse.server.app import create_app
from triverse.webpages import WEB


def test_the_catalogues_hold_every_text_of_the_code_translated_and_nothing_else() -> None:
    found = problems()
    assert found == [], ("run: python -m triverse.i18n extract, then translate\n"
                         + "\n".join(found[:40]))


def test_texts_are_found_in_python_in_the_browser_and_in_the_games_data() -> None:
    texts = {(f.text.context, f.text.msgid) for f in all_texts()}
    assert ("", "Rules") in texts                                    # webpages.py: _("Rules")
    assert ("trident:drew", "{who} drew a tile") in texts            # a message template
    assert ("trivinity:name", "Spark of Creation") in texts                     # a card's name
    assert ("game", "Trident") in texts                              # a title
    assert any(context == "trivinity:card" for context, _ in texts)  # the cards' rules texts
    assert any(context == "option" for context, _ in texts)          # the options' helps


def test_a_browser_call_without_a_literal_msgid_is_reported(tmp_path: Path) -> None:
    js = tmp_path / "web" / "js"
    js.mkdir(parents=True)
    (js / "view.js").write_text(
        't("Your turn");\nt(label);\ntn("{n} tile", plural, n);\nt(`${a} b`);\n'
        'x.t(y); function t(msgid) {}\n'
        't("{a}, {b}", { a: tn("{n} star", "{n} stars", s), b: tc(\'ctx\', \'it\\\'s\') });\n',
        encoding="utf-8")
    assert sorted({(f.text.context, f.text.msgid, f.text.plural) for f in browser_texts(js)}) == [
        ("", "Your turn", None), ("", "{a}, {b}", None), ("", "{n} star", "{n} stars"),
        ("ctx", "it's", None)]
    assert [line.split(": ", 1)[0] for line in dynamic_calls(js)] == [
        "web/js/view.js:2", "web/js/view.js:3", "web/js/view.js:4"]
    assert dynamic_calls() == []


def test_polish_has_three_plural_forms_and_french_counts_zero_as_one() -> None:
    drew = "{who} drew a tile|{who} drew {count} tiles"
    with language("pl"):
        forms = [game_message("trident", "drew", drew, n) for n in (1, 3, 5, 12, 22, 25)]
    assert forms == ["{who} dobiera płytkę", "{who} dobiera {count} płytki",
                     "{who} dobiera {count} płytek", "{who} dobiera {count} płytek",
                     "{who} dobiera {count} płytki", "{who} dobiera {count} płytek"]
    with language("fr"):
        assert game_message("trident", "drew", drew, 0) == game_message("trident", "drew", drew, 1)
        assert game_message("trident", "drew", drew, 2) != game_message("trident", "drew", drew, 1)
    assert ngettext("{n} tile", "{n} tiles", 0) == "{n} tiles"  # English: zero is plural


def test_the_language_comes_from_the_environment_or_the_header() -> None:
    assert language_from_env({"LC_ALL": "fr_FR.UTF-8", "LANG": "pl_PL.UTF-8"}) == "fr"
    assert language_from_env({"LANG": "de_DE.UTF-8"}) == "en"
    assert negotiate("de;q=1, pl;q=0.5, fr;q=0.8") == "fr"
    assert negotiate("pl-PL") == "pl"
    assert negotiate("fr;q=0") == "en"
    assert negotiate("") == "en"
    with pytest.raises(ValueError, match="unknown language 'de'"):
        set_language("de")


def test_the_browser_catalogue_holds_translations_and_plural_forms() -> None:
    pl = browser_catalogue("pl")["messages"]
    assert pl["Rules"] == "Zasady"
    assert pl["trident:drew\u0004{who} drew a tile"] == [
        "{who} dobiera płytkę", "{who} dobiera {count} płytki", "{who} dobiera {count} płytek"]
    assert browser_catalogue("en")["messages"] == {}
    assert all(isinstance(v, str | list) and v for v in pl.values())


@pytest.fixture
def web_client(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose web folder has a Polish rules page but no French one."""
    web = tmp_path / "web"
    shutil.copytree(WEB, web, ignore=shutil.ignore_patterns("pl", "fr"))
    (web / "rules" / "pl").mkdir()
    (web / "rules" / "pl" / "trident.html").write_text(
        '<!doctype html><html lang="pl"><title>Trident: zasady</title></html>', encoding="utf-8")
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", static_dir=web, bot_delay=0)
    with TestClient(app) as client:
        yield client


def test_the_server_serves_each_language_catalogue(web_client: TestClient) -> None:
    for lang in LANGUAGES:
        answer = web_client.get(f"/api/i18n/{lang}")
        assert answer.status_code == 200 and answer.json()["lang"] == lang
    assert web_client.get("/api/i18n/pl").json()["messages"]["Rules"] == "Zasady"
    gzipped = web_client.get("/api/i18n/fr", headers={"Accept-Encoding": "gzip"})
    assert gzipped.headers["content-encoding"] == "gzip"  # about a fifth of its size
    assert int(gzipped.headers["content-length"]) < len(gzipped.content) / 3
    wrong = web_client.get("/api/i18n/de")
    assert wrong.status_code == 404 and wrong.json()["error"]["code"] == "unknown_language"


def test_the_lobby_page_comes_in_the_asked_language(web_client: TestClient) -> None:
    english = web_client.get("/").text
    assert '<html lang="en">' in english and ">Rules</a>" in english
    polish = web_client.get("/", headers={"Accept-Language": "pl-PL,pl;q=0.9"})
    assert '<html lang="pl">' in polish.text and ">Zasady</a>" in polish.text
    assert "Pięć gier" in polish.text and polish.headers["content-language"] == "pl"
    assert "Accept-Language" in polish.headers["vary"]
    web_client.cookies.set("triverse_lang", "fr")
    french = web_client.get("/play/abc", headers={"Accept-Language": "pl"})
    assert '<html lang="fr">' in french.text and ">Règles</a>" in french.text


def test_a_rules_page_comes_translated_where_it_is(web_client: TestClient) -> None:
    web_client.cookies.set("triverse_lang", "pl")
    assert "Trident: zasady" in web_client.get("/rules/trident.html").text
    assert web_client.get("/rules/pl/trident.html").status_code == 200
    english = web_client.get("/rules/triangles.html")  # no Polish page: the English one
    assert english.status_code == 200 and english.headers["content-language"] == "en"
    assert web_client.get("/rules/..%2Fapp.css").status_code == 404
    assert web_client.get("/rules/").status_code == 200
