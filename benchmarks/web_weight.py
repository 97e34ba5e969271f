"""Web page weight: what the lobby and a table of each game load, found statically.

    python benchmarks/web_weight.py
    python benchmarks/web_weight.py --write docs/performance.md

It starts the real server (as ``ws_load.py`` does: a subprocess on a free 127.0.0.1 port, a
temporary SQLite file), reads ``GET /api/games``, creates a hot-seat match of each game that has
a browser module (its ``view``) for a ``/play/{id}`` address, and for ``/`` and each
``/play/{id}`` fetches ``index.html``, follows its ``<script src>`` and ``<link href>`` (style
sheet, icon, module preloads), CSS ``@import``/``url()``, and the ES module graph, as the page
loads it:

- every static ``import``/``export ... from``;
- the page's module, which ``main.js`` imports by ``location.pathname`` (``lobby.js`` for the
  lobby, ``table.js`` for a table: ``ROUTES``);
- the games' modules, which ``games.js`` imports by the URL ``GET /api/games`` gives (``import
  (game.view)``, which no static reading finds): every game's at the lobby, for its entry and
  its art, only the table's own game's at a table;
- at a table, the dynamic ``import()``s of its game's module and of what that imports: its view
  (``loadView``), with the style sheets a module links by a literal ``/css/….css`` address.

The other dynamic imports are listed as not loaded. Bytes are the decoded bodies; *gzip* is what
gzip level 6 makes of them, as the server sends a body of 1 kB or more to a browser that accepts
gzip. The first data each page
needs is measured too: ``/api/games`` for the lobby; for a table ``/api/games`` (the game's
``view``), the first view over the websocket and any ``fetch`` of a literal ``/api/`` address in
its modules (Trivinity's card table).

Time to interactive needs a browser: ``docs/web.md`` has the Playwright figures, and
``--write`` copies its "Page weight and time to interactive" section next to these figures,
between ``<!-- web:start -->`` and ``<!-- web:end -->`` of the file.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import gzip
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
from websockets.asyncio.client import connect

from docblock import markers, write_block
from ws_load import UI_LOG, Server

START, END = markers("web")
HEADING = "## Web: page weight and time to interactive"
WEB_DOC = Path(__file__).resolve().parent.parent / "docs" / "web.md"
WEB_SECTION = "## Page weight and time to interactive"
PLAYWRIGHT_COMMAND = (".venv/bin/pytest tests/web/test_web_controls.py::"
                      "test_page_weight_and_time_to_interactive")

ROUTES = {"lobby": "/js/lobby.js", "table": "/js/table.js"}
"""The page module ``main.js`` imports for each kind of address (``location.pathname``). A path
listed here that the crawl never meets is reported: the UI's modules have changed, and this
map with them."""

_STATIC_IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']""", re.M)
_DYNAMIC_IMPORT = re.compile(r"""\bimport\s*\(\s*["']([^"']+)["']\s*\)""")
_CSS_URL = re.compile(r"""@import\s+(?:url\()?\s*["']?([^"')\s;]+)|url\(\s*["']?([^"')]+)""")
_CSS_LITERAL = re.compile(r"""["'](/[^"'\s]+\.css)["']""")
_API_FETCH = re.compile(r"""\bfetch\s*\(\s*["'](/api/[^"']+)["']\s*\)""")
_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)


class _Links(HTMLParser):
    """The ``src`` of scripts and the ``href`` of links of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "script" and values.get("src"):
            self.found.append(values["src"] or "")
        elif tag == "link" and values.get("href"):
            rel = (values.get("rel") or "").lower().split()
            if set(rel) & {"stylesheet", "icon", "modulepreload", "preload", "manifest"}:
                self.found.append(values["href"] or "")


def js_imports(source: str) -> tuple[list[str], list[str]]:
    """The static and the dynamic import specifiers of an ES module.

    >>> js_imports('import { a } from "./a.js";\\nimport {\\n b,\\n} from "./b.js";\\n'
    ...            'export { c } from "./c.js";\\nconst m = await import("./d.js");')
    (['./a.js', './b.js', './c.js'], ['./d.js'])
    """
    code = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", source))
    dynamic = _DYNAMIC_IMPORT.findall(code)
    static = _STATIC_IMPORT.findall(_DYNAMIC_IMPORT.sub("", code))
    return static, dynamic


def css_urls(source: str) -> list[str]:
    code = _BLOCK_COMMENT.sub("", source)
    return [a or b for a, b in _CSS_URL.findall(code) if not (a or b).startswith("data:")]


def js_links(source: str) -> tuple[list[str], list[str]]:
    """The style sheets an ES module links (literal ``/….css`` addresses) and the ``/api/``
    addresses it fetches by a literal.

    >>> js_links('h("link", { href: "/css/x.css" });\\nfetch("/api/games/x/data");\\n'
    ...          'fetch(`/api/matches/${id}`);\\n// fetch("/api/old")')
    (['/css/x.css'], ['/api/games/x/data'])
    """
    code = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", source))
    return sorted(set(_CSS_LITERAL.findall(code))), sorted(set(_API_FETCH.findall(code)))


@dataclass
class Asset:
    path: str
    kind: str
    size: int
    gzipped: int
    cache: str
    revalidates: bool
    """It has an ETag, and a request with ``If-None-Match`` gets ``304 Not Modified``."""


@dataclass
class Source:
    """A fetched file and the addresses (absolute URLs) it leads to."""

    asset: Asset
    static: list[str]
    """Loaded with it: static imports, an HTML page's links, a style sheet's ``url()``s."""
    dynamic: list[str]
    """Its dynamic ``import()``s of a literal address."""
    linked: list[str]
    """The style sheets a module links by a literal address (when its code runs)."""
    fetches: list[str]
    """The ``/api/`` addresses a module fetches by a literal."""


@dataclass
class Page:
    name: str
    address: str
    assets: list[Asset] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    data: list[tuple[str, int]] = field(default_factory=list)
    fetches: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(a.size for a in self.assets)

    @property
    def gzipped(self) -> int:
        return sum(a.gzipped for a in self.assets)

    def files(self) -> str:
        kinds: dict[str, int] = {}
        for asset in self.assets:
            kinds[asset.kind] = kinds.get(asset.kind, 0) + 1
        names = {"html": "HTML", "css": "CSS", "js": "modules", "icon": "icon"}
        parts = [f"{n} {names.get(k, k)}" if k == "js" else
                 (names.get(k, k) if n == 1 else f"{n} {names.get(k, k)}")
                 for k, n in sorted(kinds.items(), key=lambda kn: _KIND_ORDER.index(kn[0])
                                    if kn[0] in _KIND_ORDER else len(_KIND_ORDER))]
        return f"{len(self.assets)} ({', '.join(parts)})"


_KIND_ORDER = ["html", "icon", "css", "js"]


def _kind(path: str, content_type: str) -> str:
    if path.endswith(".js") or "javascript" in content_type:
        return "js"
    if path.endswith(".css") or "css" in content_type:
        return "css"
    if "html" in content_type:
        return "html"
    if "svg" in content_type or "image" in content_type:
        return "icon"
    return content_type.split(";")[0] or "other"


class Fetcher:
    """Fetches each file once and reads what it leads to."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.files: dict[str, Source] = {}

    def get(self, url: str, document: bool = False) -> Source:
        """The file at ``url`` (an absolute URL): ``document`` is a page's HTML."""
        path = urlsplit(url).path
        if path in self.files and not document:
            return self.files[path]
        answer = self.http.get(url)
        answer.raise_for_status()
        body = answer.content
        content_type = answer.headers.get("content-type", "")
        kind = "html" if document else _kind(path, content_type)
        etag = answer.headers.get("etag")
        revalidates = etag is not None and self.http.get(
            url, headers={"If-None-Match": etag}).status_code == 304
        asset = Asset(path, kind, len(body), len(gzip.compress(body, 6)),
                      answer.headers.get("cache-control", "none"), revalidates)
        text = body.decode("utf-8", errors="replace")
        static: list[str] = []
        dynamic: list[str] = []
        linked: list[str] = []
        fetches: list[str] = []
        if kind == "html":
            parser = _Links()
            parser.feed(text)
            static = parser.found
        elif kind == "css":
            static = css_urls(text)
        elif kind == "js":
            static, dynamic = js_imports(text)
            linked, fetches = js_links(text)
        source = Source(asset, *([urljoin(url, link) for link in links]
                                 for links in (static, dynamic, linked, fetches)))
        if not document:
            self.files[path] = source
        return source


def crawl(fetcher: Fetcher, name: str, address: str, route: str, games: Sequence[str],
          table: bool) -> Page:
    """Every asset a browser loads for ``address``, found statically: ``index.html`` and what
    it loads, the page's module ``route`` (``main.js`` imports it), and the games' modules
    ``games`` (``games.js`` imports them); at a ``table``, also the dynamic imports of the
    game's modules and the style sheets they link."""
    page = Page(name, address)
    loaded: dict[str, Source] = {}

    def visit(url: str, *, document: bool = False, game: bool = False) -> None:
        todo = [url]
        while todo:
            current = todo.pop(0)
            path = urlsplit(current).path
            if path in loaded:
                continue
            source = fetcher.get(current, document=document and current == url)
            loaded[path] = source
            todo += source.static
            if game:
                todo += source.dynamic + source.linked

    visit(address, document=True)
    imported = {urlsplit(d).path for s in loaded.values() for d in s.dynamic}
    if urlsplit(route).path in imported:
        visit(route)
    else:
        page.missing.append(urlsplit(route).path)
    for view in games:
        visit(view, game=table)
    page.assets = [s.asset for s in loaded.values()]
    page.skipped = sorted({urlsplit(d).path for s in loaded.values() for d in s.dynamic}
                          - set(loaded))
    page.fetches = sorted({urlsplit(f).path for s in loaded.values() for f in s.fetches})
    return page


async def first_view_bytes(ws_base: str, match_id: str, token: str) -> int:
    """The size of the first view a table page receives (``hello`` with the UI's ``log``)."""
    async with connect(f"{ws_base}/ws/matches/{match_id}", ping_interval=None,
                       max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "log": UI_LOG}))
        while True:
            raw = await asyncio.wait_for(ws.recv(), 30)
            text = raw if isinstance(raw, str) else raw.decode()
            if json.loads(text).get("type") == "view":
                return len(text.encode())


def measure(server: Server) -> list[Page]:
    """The lobby, then a table of each game with a browser module (in the API's order)."""
    base = server.base
    with httpx.Client(base_url=base, timeout=30) as http:
        fetcher = Fetcher(http)
        catalogue = http.get("/api/games")
        catalogue.raise_for_status()
        api_games = ("`GET /api/games`", len(catalogue.content))
        games = [g for g in catalogue.json()["games"] if g.get("available") and g.get("view")]
        views = {g["name"]: urljoin(base + "/", g["view"]) for g in games}
        lobby = crawl(fetcher, "lobby", base + "/", urljoin(base, ROUTES["lobby"]),
                      list(views.values()), table=False)
        lobby.data = [api_games]
        for lang in ("pl", "fr"):  # a browser in another language loads its catalogue too
            answer = http.get(f"/api/i18n/{lang}")
            answer.raise_for_status()
            lobby.data.append((f"`GET /api/i18n/{lang}` (in {lang} only)", len(answer.content)))
        pages = [lobby]
        for game in games:
            created = http.post("/api/matches", json={
                "game": game["name"], "mode": "hotseat", "seed": 17,
                "seats": [{"kind": "human"}] * game["default_players"]})
            created.raise_for_status()
            match = created.json()
            page = crawl(fetcher, game["title"], f"{base}/play/{match['match_id']}",
                         urljoin(base, ROUTES["table"]), [views[game["name"]]], table=True)
            first = asyncio.run(first_view_bytes(server.ws_base, match["match_id"],
                                                 match["seats"][0]["token"]))
            page.data = [api_games, ("the first view, over the websocket", first)]
            for path in page.fetches:
                answer = http.get(path)
                answer.raise_for_status()
                page.data.append((f"`GET {path}`", len(answer.content)))
            pages.append(page)
    return pages


def web_md_section(path: Path = WEB_DOC) -> str | None:
    """The body of docs/web.md's page weight section, or ``None`` if it is not found."""
    try:
        doc = path.read_text(encoding="utf-8")
    except OSError:
        return None
    if WEB_SECTION not in doc:
        return None
    body = doc.split(WEB_SECTION, 1)[1]
    body = re.split(r"^## ", body, maxsplit=1, flags=re.M)[0]
    return body.strip() or None


def report(pages: Sequence[Page], command: str) -> str:
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d")
    lines = [
        f"Page weight measured by `{command}` on {when}, against the real server on "
        "loopback: `index.html` is fetched and its `<script type=module>`, `<link>`s and the "
        "ES module import graph followed statically, as the page loads it: static imports; "
        "the page's module, which `main.js` imports by the address (`lobby.js`, `table.js`); "
        "the games' modules, which `games.js` imports by the `view` of `GET /api/games` "
        "(every game's at the lobby, for its entry and art; the table's own game's at a "
        "table); and at a table the dynamic imports of that game's modules (its view) with "
        "the style sheets they link. A table is a new hot-seat match of the game. Bytes as "
        "decoded; *gzip* is what gzip -6 makes of them, as the server sends a body of 1 kB or "
        "more to a browser that accepts gzip.",
        "",
        "| page | files | bytes | gzip | first data it needs, bytes |",
        "|---|---|---|---|---|",
    ]
    for page in pages:
        label = "lobby (`/`)" if page.name == "lobby" else f"{page.name} table (`/play/{{id}}`)"
        data = "; ".join(f"{what}: {size:,}" for what, size in page.data)
        lines.append(f"| {label} | {page.files()} | {page.size:,} | {page.gzipped:,} | "
                     f"{data} |")
    lines.append("")
    for page in pages:
        label = "lobby" if page.name == "lobby" else f"{page.name} table"
        modules = ", ".join(a.path.removeprefix("/js/") for a in page.assets if a.kind == "js")
        sheets = ", ".join(a.path for a in page.assets if a.kind == "css")
        skipped = ", ".join(sorted({s.removeprefix("/js/") for s in page.skipped}))
        lines.append(f"- {label}: {modules}; style sheets {sheets}"
                     + (f" (not loaded: {skipped})" if skipped else ""))
    assets = {a.path: a for p in pages for a in p.assets}
    html = [a for a in assets.values() if a.kind == "html"]
    others = [a for a in assets.values() if a.kind != "html"]

    def cache_control(group: list[Asset]) -> str:
        values = sorted({a.cache for a in group})
        return "no Cache-Control" if values == ["none"] else "Cache-Control " + ", ".join(
            f"`{v}`" for v in values)

    lines += ["", f"Caching: `index.html` is sent with {cache_control(html)} and "
              f"{'answers' if all(a.revalidates for a in html) else 'does not answer'} a "
              f"conditional request with 304; the {len(others)} other files have "
              f"{cache_control(others)}, an ETag and Last-Modified, and "
              f"{sum(a.revalidates for a in others)} of them answer a conditional request "
              "(`If-None-Match`) with 304. So a browser caches them only heuristically, and "
              "a revisit may revalidate them with a request each."]
    section = web_md_section()
    lines += ["", "Time to interactive needs a browser. The figures below are copied from "
              "[web.md](web.md#page-weight-and-time-to-interactive), measured with Playwright "
              f"by `{PLAYWRIGHT_COMMAND}` (it also runs within `.venv/bin/pytest tests/web "
              "-n 2`); its byte counts are the Performance API's decoded sizes, so they match "
              "the table above up to edits made since.", ""]
    if section is None:
        lines.append(f"(docs/web.md has no \"{WEB_SECTION[3:]}\" section to copy.)")
    else:
        lines += [("> " + line).rstrip() for line in section.splitlines()]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", metavar="FILE", type=Path,
                        help="replace the web block of FILE (docs/performance.md)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="triverse-web-weight-") as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'web.sqlite3'}", Path(tmp) / "server.log")
        try:
            server.wait_ready(60)
            pages = measure(server)
        finally:
            server.stop()
    for page in pages:
        if page.missing:
            print(f"warning: the {page.name} page never imports {', '.join(page.missing)}: "
                  "update ROUTES", file=sys.stderr)
    shown = sys.argv[1:] if argv is None else list(argv)
    text = report(pages, " ".join(["python benchmarks/web_weight.py", *shown]))
    print(text)
    if args.write:
        write_block(args.write, START, END, HEADING, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
