"""The rules pages in Polish and French (``web/rules/pl/`` and ``web/rules/fr/``).

Each translated page is the English page with its words translated: the same elements, ids,
classes, roles, data attributes and links, in the same order, so the diagrams and the scripts
work the same in every language; only text, the title and the words of aria labels and of
the star diagrams' notes and refusal reasons differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

from triverse import webpages
from triverse.webpages import WEB

RULES = WEB / "rules"
ENGLISH = sorted(RULES.glob("*.html"))
LANGUAGES = ("pl", "fr")
NOTATION = {"code", "kbd"}
"""Elements whose text is notation or a key, the same in every language."""
WORDED = {"aria-label", "alt", "title"}
"""Attributes a player (or a screen reader) reads."""
LETTERS = re.compile(r"[^\W\d_]{2,}")


def _words(text: str) -> bool:
    """Whether ``text`` holds words (not only numbers, signs and one-letter names)."""
    return LETTERS.search(text) is not None


@dataclass
class Main:
    """What a page holds inside its ``<main>``."""

    skeleton: list[tuple[str, ...]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    worded: list[str] = field(default_factory=list)
    links: list[str] = field(default_factory=list)


class _MainParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.main = Main()
        self.lang = ""
        self._inside = False
        self._notation = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.lang = values.get("lang", "")
        if tag == "main":
            self._inside = True
            return
        if not self._inside:
            return
        self._notation += tag in NOTATION
        self.main.skeleton.append((tag, *self._structure(values)))

    def _structure(self, values: dict[str, str]) -> list[str]:
        kept: list[str] = []
        for name, value in sorted(values.items()):
            if name in WORDED:
                self.main.worded.append(value)
                kept.append(name)
            elif name == "data-refused":
                line, reason = value.split(":", 1)
                self.main.worded.append(reason)
                kept.append(f"{name}={line}")
            elif name == "data-notes":
                notes = [note.strip().split(":", 1) for note in value.split(";")]
                self.main.worded.extend(words for _, words in notes)
                kept.append(f"{name}={' '.join(point for point, _ in notes)}")
            elif name == "href":
                self.main.links.append(value)
                kept.append(f"href={re.sub(r'^/rules/(pl|fr)/', '/rules/', value)}")
            else:
                kept.append(f"{name}={value}")
        return kept

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self._inside = False
        elif self._inside:
            self._notation -= tag in NOTATION
            self.main.skeleton.append((f"/{tag}",))

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if self._inside and text and not self._notation:
            self.main.texts.append(text)


def _parse(path: Path) -> tuple[str, str, Main]:
    """A page's language, its title and what its ``<main>`` holds."""
    html = path.read_text(encoding="utf-8")
    parser = _MainParser()
    parser.feed(html)
    parser.close()
    return parser.lang, webpages.parse_rules_page(html).title, parser.main


def _translation(english: Path, lang: str) -> Path:
    return RULES / lang / english.name


CASES = [pytest.param(page, lang, id=f"{lang}-{page.stem}")
         for page in ENGLISH for lang in LANGUAGES]


def test_every_english_page_is_checked() -> None:
    assert {page.stem for page in ENGLISH} >= {
        "index", "trinity", "triangles", "trivinity", "trident", "triominoes"}


@pytest.mark.parametrize(("english", "lang"), CASES)
def test_a_translated_page_has_the_english_skeleton(english: Path, lang: str) -> None:
    page = _translation(english, lang)
    assert page.exists(), f"{page} is missing"
    found_lang, _, translated = _parse(page)
    _, _, original = _parse(english)
    assert found_lang == lang
    assert translated.skeleton == original.skeleton
    assert len(translated.texts) > 0 and len(translated.worded) == len(original.worded)


@pytest.mark.parametrize(("english", "lang"), CASES)
def test_a_translated_page_keeps_the_english_head(english: Path, lang: str) -> None:
    html = _translation(english, lang).read_text(encoding="utf-8")
    original = english.read_text(encoding="utf-8")
    assert html.count(f'<html lang="{lang}">') == 1
    assert html.count(webpages.site_header(lang)) == 1  # the header in the page's language
    assert webpages.site_header(lang) != webpages.SITE_HEADER
    mine = webpages.parse_rules_page(html.replace(f'<html lang="{lang}">', '<html lang="en">'))
    theirs = webpages.parse_rules_page(original)
    assert (mine.head_before, mine.head_after) == (theirs.head_before, theirs.head_after)


@pytest.mark.parametrize(("english", "lang"), CASES)
def test_a_translated_page_has_no_english_left(english: Path, lang: str) -> None:
    _, title, translated = _parse(_translation(english, lang))
    _, english_title, original = _parse(english)
    assert title != english_title
    english_texts = {text for text in original.texts if len(text) > 20 and _words(text)}
    untranslated = [text for text in translated.texts if text in english_texts]
    assert untranslated == []
    for mine, theirs in zip(translated.worded, original.worded, strict=True):
        assert mine != theirs or not _words(theirs), f"untranslated attribute: {theirs!r}"


@pytest.mark.parametrize(("english", "lang"), CASES)
def test_links_between_rules_pages_stay_in_the_language(english: Path, lang: str) -> None:
    _, _, translated = _parse(_translation(english, lang))
    for link in translated.links:
        if link.startswith("/rules/"):
            assert link.startswith(f"/rules/{lang}/"), link
            assert (WEB / link.lstrip("/")).exists(), link
        elif not link.startswith(("/", "#", "http")):
            assert (RULES / lang / link.split("#")[0]).exists(), link


def test_the_polish_triangles_page_uses_the_seed_words() -> None:
    text = (RULES / "pl" / "triangles.html").read_text(encoding="utf-8")
    for words in ("„Zagraj ponownie po trójkącie”", "„Wygrałeś!”", "„Przegrałeś!”", "„Remis!”",
                  "Mgławica", "2 punkty"):
        assert words in text, words


def test_the_french_triominoes_page_uses_the_rule_sheet_words() -> None:
    _, title, main = _parse(RULES / "fr" / "triominoes.html")
    text = " ".join(main.texts)
    assert title == "Tri-ominoes\u00a0: les règles"
    for words in ("Hexagone", "Pont", "un pont", "un hexagone", "triple zéro", "pioche"):
        assert words in text, words
