"""The web pages' shared header and the rules pages' layout (``triverse.webpages``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from triverse import webpages
from triverse.games import available_games, game_class
from triverse.webpages import WEB, RulesPage, expected, pages, stale


def test_the_committed_pages_are_laid_out_from_the_template(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert stale() == [], "run: python -m triverse.webpages"
    assert webpages.main(["--check"]) == 0 and capsys.readouterr().out == ""
    for path in pages():
        header = webpages.site_header(webpages.page_language(path))
        assert path.read_text(encoding="utf-8").count(header) == 1, path


def test_every_game_has_a_rules_page_linked_from_the_index() -> None:
    index = (WEB / "rules" / "index.html").read_text(encoding="utf-8")
    for name in available_games():
        page = WEB / "rules" / f"{name}.html"
        assert page.exists() and f'href="/rules/{name}.html"' in index
        assert webpages.parse_rules_page(page.read_text(encoding="utf-8")).title.startswith(
            game_class(name).title)


def test_trinity_is_no_longer_coming_soon() -> None:
    text = (WEB / "rules" / "trinity.html").read_text(encoding="utf-8").lower()
    assert "coming soon" not in text and "when its engine is ready" not in text


def test_a_page_keeps_its_own_parts() -> None:
    page = webpages.parse_rules_page((WEB / "rules" / "trivinity.html").read_text("utf-8"))
    assert page.title == "Trivinity: the rules"
    assert page.head_before == ('  <link rel="stylesheet" href="/css/trivinity.css">',)
    assert page.head_after == ('  <script type="module" src="/js/rules-trivinity.js"></script>',)
    assert page.content.lstrip().startswith("<h1>Trivinity</h1>")


def test_a_changed_header_is_put_back(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB / "rules", web / "rules")
    shutil.copy(WEB / "index.html", web / "index.html")
    trident = web / "rules" / "trident.html"
    original = trident.read_text(encoding="utf-8")
    trident.write_text(original.replace("My games", "Saved games"), encoding="utf-8")
    lobby = web / "index.html"
    lobby.write_text(lobby.read_text("utf-8").replace("Preferences", "Settings"), "utf-8")
    assert stale(web) == [lobby, trident]
    assert expected(trident, web) == original
    assert expected(lobby, web) == (WEB / "index.html").read_text(encoding="utf-8")


def test_a_page_without_the_layout_is_refused(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    broken = tmp_path / "rules" / "broken.html"
    broken.write_text("<html><body><p>no layout</p></body></html>\n", encoding="utf-8")
    with pytest.raises(webpages.LayoutError, match=r"broken\.html"):
        expected(broken, tmp_path)


def test_render_and_parse_are_inverse() -> None:
    page = RulesPage("X: the rules", ('  <link rel="stylesheet" href="/css/x.css">',),
                     ("  <script>1</script>",), "\n  <h1>X</h1>\n")
    assert webpages.parse_rules_page(webpages.render_rules_page(page)) == page
