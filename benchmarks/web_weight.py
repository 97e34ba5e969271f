"""Web page weight: the bytes of every asset of the lobby and of a table page, found statically.

    python benchmarks/web_weight.py
    python benchmarks/web_weight.py --write docs/performance.md

It starts the real server (as ``ws_load.py`` does: a subprocess on a free 127.0.0.1 port, a
temporary SQLite file), creates a hot-seat match for a ``/play/{id}`` address, and for ``/`` and
``/play/{id}`` fetches ``index.html``, follows its ``<script src>`` and ``<link href>`` (style
sheet, icon, module preloads), CSS ``@import``/``url()``, and the ES module graph: every static
``import``/``export ... from``, and of the dynamic ``import()``s only those made for that
address (``lobby.js`` for the lobby; ``table.js`` and the Tri-ominoes board module
``games/tiles.js`` for a table; the others are listed as not loaded). Bytes are the bodies as
served (the server does not compress); gzip level 6 shows what compression would save. The
first data each page needs is measured too: ``/api/games`` for the lobby, the first view over
the websocket for a table.

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

ROUTE_MODULES = {"lobby": {"/js/lobby.js"}, "table": {"/js/table.js", "/js/games/tiles.js"}}
"""The dynamic imports each page makes: ``main.js`` picks the page's module by
``location.pathname``, and ``games.js`` the board module of the game's kind (``tiles.js`` for
Tri-ominoes, the table measured here). A path listed here that the crawl never meets is
reported: the UI's modules have changed, and this map with them."""

_STATIC_IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"']+)["']""", re.M)
_DYNAMIC_IMPORT = re.compile(r"""\bimport\s*\(\s*["']([^"']+)["']\s*\)""")
_CSS_URL = re.compile(r"""@import\s+(?:url\()?\s*["']?([^"')\s;]+)|url\(\s*["']?([^"')]+)""")
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
class Page:
    name: str
    address: str
    assets: list[Asset] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    data_label: str = ""
    data_bytes: int = 0

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
                 for k, n in kinds.items()]
        return f"{len(self.assets)} ({', '.join(parts)})"


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


def crawl(http: httpx.Client, name: str, address: str) -> Page:
    """Every asset a browser loads for ``address``, found statically."""
    page = Page(name, address)
    seen: set[str] = set()
    todo: list[tuple[str, bool]] = [(address, True)]
    while todo:
        url, is_document = todo.pop(0)
        path = urlsplit(url).path
        if path in seen:
            continue
        seen.add(path)
        answer = http.get(url)
        answer.raise_for_status()
        body = answer.content
        content_type = answer.headers.get("content-type", "")
        kind = "html" if is_document else _kind(path, content_type)
        etag = answer.headers.get("etag")
        revalidates = etag is not None and http.get(
            url, headers={"If-None-Match": etag}).status_code == 304
        page.assets.append(Asset(path, kind, len(body), len(gzip.compress(body, 6)),
                                 answer.headers.get("cache-control", "none"), revalidates))
        text = body.decode("utf-8", errors="replace")
        found: list[str] = []
        if kind == "html":
            parser = _Links()
            parser.feed(text)
            found = parser.found
        elif kind == "css":
            found = css_urls(text)
        elif kind == "js":
            static, dynamic = js_imports(text)
            found = list(static)
            for spec in dynamic:
                target = urlsplit(urljoin(url, spec)).path
                if target in ROUTE_MODULES[name]:
                    found.append(spec)
                else:
                    page.skipped.append(target)
        todo += [(urljoin(url, link), False) for link in found]
    page.missing = sorted(ROUTE_MODULES[name] - seen)
    page.skipped = sorted(set(page.skipped) - seen)
    return page


async def first_view_bytes(ws_base: str, match_id: str, token: str) -> int:
    """The size of the first view a table page receives (``hello`` with the UI's ``log``)."""
    async with connect(f"{ws_base}/ws/matches/{match_id}", ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "log": UI_LOG}))
        while True:
            raw = await asyncio.wait_for(ws.recv(), 30)
            text = raw if isinstance(raw, str) else raw.decode()
            if json.loads(text).get("type") == "view":
                return len(text.encode())


def measure(server: Server) -> list[Page]:
    with httpx.Client(base_url=server.base, timeout=30) as http:
        created = http.post("/api/matches", json={
            "game": "triominoes", "mode": "hotseat", "seed": 17,
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        created.raise_for_status()
        match = created.json()
        lobby = crawl(http, "lobby", server.base + "/")
        lobby.data_label, lobby.data_bytes = "`GET /api/games`", len(
            http.get("/api/games").content)
        table = crawl(http, "table", f"{server.base}/play/{match['match_id']}")
    seat = match["seats"][0]
    table.data_label = "a new match's first view, over the websocket"
    table.data_bytes = asyncio.run(first_view_bytes(server.ws_base, match["match_id"],
                                                    seat["token"]))
    return [lobby, table]


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
        "ES module import graph followed statically (static imports, plus the dynamic "
        "imports made for that address: `main.js` picks the page's module, `games.js` the "
        "board of the game, Tri-ominoes here). Bytes as served: the server does not "
        "compress; *gzip* is what gzip -6 would send.",
        "",
        "| page | files | bytes | gzip | first data it needs |",
        "|---|---|---|---|---|",
    ]
    for page in pages:
        address = "/" if page.name == "lobby" else "/play/{id}"
        lines.append(f"| {page.name} (`{address}`) | {page.files()} | {page.size:,} | "
                     f"{page.gzipped:,} | {page.data_label}: {page.data_bytes:,} |")
    lines.append("")
    for page in pages:
        modules = ", ".join(a.path.removeprefix("/js/") for a in page.assets if a.kind == "js")
        skipped = ", ".join(sorted({s.removeprefix("/js/") for s in page.skipped}))
        lines.append(f"- {page.name}: {modules}" + (f" (not loaded: {skipped})"
                                                    if skipped else ""))
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
                  "update ROUTE_MODULES", file=sys.stderr)
    shown = sys.argv[1:] if argv is None else list(argv)
    text = report(pages, " ".join(["python benchmarks/web_weight.py", *shown]))
    print(text)
    if args.write:
        write_block(args.write, START, END, HEADING, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
