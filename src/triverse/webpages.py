"""The site header and the rules pages' layout, written once.

Every page of the web UI starts with the same skip link and site header (the brand and the
navigation), and every rules page (``web/rules/*.html``) with the same head too. They are
:data:`SITE_HEADER` and :data:`RULES_LAYOUT` here; each rules page keeps only what is its own:
its title, any extra head lines (a stylesheet, a script) and its content. After changing the
layout, rewrite the pages with::

    python -m triverse.webpages            # rewrite the pages that differ
    python -m triverse.webpages --check    # list the pages that differ (the tests run this)

>>> page = render_rules_page(RulesPage("Rules", (), (), "  <h1>Rules</h1>"))
>>> parse_rules_page(page)
RulesPage(title='Rules', head_before=(), head_after=(), content='  <h1>Rules</h1>')
>>> '<a href="/rules/">Rules</a>' in page
True
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from triverse.i18n import DEFAULT, LANGUAGES, N_, _, language, pgettext

WEB = Path(__file__).resolve().parent / "web"
"""The web UI's files, as the server serves them."""

_HEADER = """\
  <a class="skip-link" href="#app">{skip}</a>
  <header class="site-header">
    <a class="brand" href="/" aria-label="{brand}">
      <svg viewBox="0 0 40 36" aria-hidden="true" class="brand-mark"><polygon points="20,2 38,34 2,34"/><polygon points="20,34 11,18 29,18" class="inner"/></svg>
      <span>Triverse</span>
    </a>
    <nav aria-label="{site}">
      <a href="/">{games}</a>
      <a href="/#my-games">{mine}</a>
      <a href="/rules/">{rules}</a>
      <button type="button" id="prefs-button">{prefs}</button>
    </nav>
  </header>
"""  # noqa: E501 (the brand's SVG is one line, as in the pages)


def site_header(lang: str = DEFAULT) -> str:
    """The skip link and the site header in ``lang``."""
    with language(lang):
        return _HEADER.format(
            skip=escape(_("Skip to the content")), brand=escape(_("Triverse: the lobby")),
            site=escape(pgettext("navigation", "Site")), games=escape(_("Games")),
            mine=escape(_("My games")), rules=escape(_("Rules")),
            prefs=escape(_("Preferences")))


SITE_HEADER = site_header()
"""The skip link and the site header of every page, the lobby's included."""

_HEAD_START = """\
<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
"""
_SHARED_HEAD = """\
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/css/app.css">
"""
_RULES_SCRIPT = """  <script type="module" src="/js/rules.js"></script>\n"""
_MAIN = """  <main id="app" tabindex="-1" class="rules-page">\n"""
_END = """\
  </main>
</body>
</html>
"""

RULES_LAYOUT = (_HEAD_START + "  <title>{title} · Triverse</title>\n" + _SHARED_HEAD
                + "{head_before}" + _RULES_SCRIPT + "{head_after}"
                + '</head>\n<body data-page="rules">\n' + "{header}" + _MAIN
                + "{content}\n" + _END)
"""A rules page: the shared head and header around the page's own parts."""


@dataclass(frozen=True)
class RulesPage:
    """What a rules page has of its own."""

    title: str
    """The page's title, before `` · Triverse``."""
    head_before: tuple[str, ...]
    """Head lines of the page before the rules script (stylesheets)."""
    head_after: tuple[str, ...]
    """Head lines of the page after the rules script (inline scripts)."""
    content: str
    """Everything inside ``<main>``."""


class LayoutError(ValueError):
    """A page is not laid out as its template expects."""


def render_rules_page(page: RulesPage, lang: str = DEFAULT) -> str:
    """The whole HTML of a rules page in ``lang``."""
    return RULES_LAYOUT.format(
        lang=lang, header=site_header(lang).replace("{", "{{").replace("}", "}}"),
        title=page.title,
        head_before="".join(line + "\n" for line in page.head_before),
        head_after="".join(line + "\n" for line in page.head_after),
        content=page.content,
    )


def parse_rules_page(html: str) -> RulesPage:
    """A rules page's own parts, found in its HTML."""
    head_end = html.find("</head>\n")
    body = html.find(_MAIN)
    end = html.rfind(_END)
    title = re.search(r"^  <title>(.*) · Triverse</title>$", html, re.MULTILINE)
    if head_end < 0 or body < 0 or end < body or title is None:
        raise LayoutError("expected a <title>, </head>, the rules page's <main> and its end")
    before: list[str] = []
    after: list[str] = []
    shared = {*_HEAD_START.splitlines(), *_SHARED_HEAD.splitlines(), title.group(0)}
    shared |= {line for line in html[:head_end].splitlines() if line.startswith("<html lang=")}
    own = before
    for line in html[:head_end].splitlines():
        if line + "\n" == _RULES_SCRIPT:
            own = after
        elif line not in shared:
            own.append(line)
    return RulesPage(title.group(1), tuple(before), tuple(after),
                     html[body + len(_MAIN):end].removesuffix("\n"))


def with_site_header(html: str, lang: str = DEFAULT) -> str:
    """``html`` with its skip link and site header replaced by the header in ``lang``."""
    start = html.find('  <a class="skip-link"')
    end = html.find("  </header>\n", start)
    if start < 0 or end < 0:
        raise LayoutError("expected a skip link and a site header")
    return html[:start] + site_header(lang) + html[end + len("  </header>\n"):]


def pages(web: Path = WEB) -> list[Path]:
    """The pages laid out here: the lobby and every rules page, in every language."""
    translated = [path for lang in LANGUAGES if lang != DEFAULT
                  for path in sorted((web / "rules" / lang).glob("*.html"))]
    return [web / "index.html", *sorted((web / "rules").glob("*.html")), *translated]


def page_language(path: Path, web: Path = WEB) -> str:
    """The language of a rules page: that of its folder (``rules/pl/``), else English."""
    folder = path.parent
    if folder.parent == web / "rules" and folder.name in LANGUAGES:
        return folder.name
    return DEFAULT


def expected(path: Path, web: Path = WEB) -> str:
    """What the page at ``path`` should hold."""
    html = path.read_text(encoding="utf-8")
    try:
        if path.parent == web / "rules" or path.parent.parent == web / "rules":
            return render_rules_page(parse_rules_page(html), page_language(path, web))
        return with_site_header(html)
    except LayoutError as exc:
        raise LayoutError(f"{path}: {exc}") from None


def stale(web: Path = WEB) -> list[Path]:
    """The pages that differ from their layout."""
    return [path for path in pages(web) if path.read_text(encoding="utf-8") != expected(path, web)]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m triverse.webpages [--check]``."""
    parser = argparse.ArgumentParser(prog="python -m triverse.webpages",
                                     description="Lay out the web pages from their template.")
    parser.add_argument("--check", action="store_true",
                        help="list the pages that differ instead of rewriting them")
    args = parser.parse_args(argv)
    differing = stale()
    for path in differing:
        if args.check:
            sys.stdout.write(f"{path.relative_to(WEB)} differs from its layout\n")
        else:
            path.write_text(expected(path), encoding="utf-8")
            sys.stdout.write(f"rewrote {path.relative_to(WEB)}\n")
    return 1 if args.check and differing else 0


if __name__ == "__main__":
    raise SystemExit(main())


LOBBY_TEXTS = (
    N_("Five tri games on one table: Tri-ominoes, Trinity, Triangles, Trivinity and Trident."),
    N_("Triverse needs JavaScript to show its tables."),
)
"""The lobby page's own texts (its description and its ``noscript`` line)."""


def localized_index(html: str, lang: str) -> str:
    """The lobby page ``html`` (``index.html``) in ``lang``: its ``lang``, header and texts."""
    if lang == DEFAULT:
        return html
    html = with_site_header(html, lang).replace('<html lang="en">', f'<html lang="{lang}">', 1)
    with language(lang):
        for text in LOBBY_TEXTS:
            html = html.replace(text, escape(_(text), quote=True))
    return html


__all__ = ["LOBBY_TEXTS", "RULES_LAYOUT", "SITE_HEADER", "LayoutError", "RulesPage", "expected",
           "localized_index", "main", "page_language", "pages", "parse_rules_page",
           "render_rules_page", "site_header", "stale", "with_site_header"]
