"""The translation catalogues: every text Triverse shows, found where it is written, and the
``.po`` files that translate it.

Three sources make the template (``locale/triverse.pot``):

- Python code: literal arguments of ``_``, ``N_``, ``ngettext``, ``pgettext`` and
  ``npgettext`` (Babel's Python extractor);
- the browser's scripts (``web/js``): literal arguments of ``t``, ``tn``, ``tc`` and ``tnc``
  (Babel's JavaScript extractor; a call whose msgid is not a literal is reported, since no
  catalogue could hold it);
- every game's own data (:meth:`triverse.core.game.Game.texts`): titles, summaries, option helps,
  variants, message templates, Trivinity's cards.

``python -m triverse.i18n extract`` writes the template and brings each language's ``.po`` up to
date with it (Babel's ``Catalog.update``: new msgids empty, obsolete ones dropped);
``python -m triverse.i18n check`` lists what is missing, untranslated, obsolete or
mistranslated (a translation whose ``{placeholders}`` differ from its msgid's), and the test
suite runs it.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract, extract_javascript
from babel.messages.pofile import read_po, write_po

from triverse.core.messages import Text
from triverse.core.plugins import available_games, game_class
from triverse.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR, po_path

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``triverse`` package, whose sources are read."""

PYTHON_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
                   "npgettext": ((1, "c"), 2, 3)}
JS_KEYWORDS = {"t": None, "tn": (1, 2), "tc": ((1, "c"), 2), "tnc": ((1, "c"), 2, 3)}
_JS_PARTS = {"t": (None, 0, None), "tn": (None, 0, 1), "tc": (0, 1, None), "tnc": (0, 1, 2)}
"""Where each browser keyword keeps its context, msgid and plural among its arguments."""

POT = LOCALE_DIR / f"{DOMAIN}.pot"
_FIELD = re.compile(r"\{(\w*)\}")


@dataclass(frozen=True)
class Found:
    """A text found in a source: the entry and where it was written."""

    text: Text
    where: str


def python_texts(root: Path = PACKAGE) -> Iterator[Found]:
    """The texts of the Python sources under ``root``."""
    for path in sorted(root.rglob("*.py")):
        with path.open("rb") as f:
            for lineno, message, _comments, context in extract(
                    "python", f, keywords=PYTHON_KEYWORDS, strip_comment_tags=True):
                yield Found(_text(context, message), f"{path.relative_to(root)}:{lineno}")


_STRING = r'"(?:[^"\\\n]|\\.)*"' + r"|'(?:[^'\\\n]|\\.)*'"
_LITERAL_CALL = re.compile(
    rf"(?<![\w.$])(?<!function )(tnc|tn|tc|t)\(\s*({_STRING})(?:\s*,\s*({_STRING}))?"
    rf"(?:\s*,\s*({_STRING}))?")
"""A translation call with literal strings, as written in the browser's scripts: Babel's
extractor reads each call, but not one written inside another's arguments (a ``tn()`` in a
``t()``'s parameters), which this finds."""


def _js_string(literal: str) -> str:
    body = literal[1:-1]
    if literal[0] == "'":
        body = body.replace('\\\'', "'").replace('"', '\\"')
    decoded: str = json.loads(f'"{body}"')
    return decoded


def _nested_texts(root: Path) -> Iterator[Found]:
    for path in sorted(root.rglob("*.js")):
        if path.name == "i18n.js":
            continue
        source = path.read_text(encoding="utf-8")
        name = str(path.relative_to(root.parent.parent))
        for match in _LITERAL_CALL.finditer(source):
            funcname, *literals = match.groups()
            args = tuple(_js_string(a) for a in literals if a is not None)
            context_at, msgid_at, plural_at = _JS_PARTS[funcname]
            if max(i for i in (context_at, msgid_at, plural_at) if i is not None) >= len(args):
                continue  # a plural or msgid that is not a literal: dynamic_calls says so
            lineno = source.count("\n", 0, match.start()) + 1
            yield Found(Text(args[context_at] if context_at is not None else "", args[msgid_at],
                             args[plural_at] if plural_at is not None else None),
                        f"{name}:{lineno}")


def browser_texts(root: Path = PACKAGE / "web" / "js") -> Iterator[Found]:
    """The texts of the browser's scripts; :func:`dynamic_calls` lists those it cannot read."""
    yield from _nested_texts(root)
    for path, lineno, funcname, args in _js_calls(root):
        context_at, msgid_at, plural_at = _JS_PARTS[funcname]
        parts = [args[i] if i is not None and i < len(args) else None
                 for i in (context_at, msgid_at, plural_at)]
        context, msgid, plural = (p if isinstance(p, str) else None for p in parts)
        if msgid is None or "${" in msgid or (context_at is not None and context is None) or (
                plural_at is not None and plural is None):
            continue  # reported by dynamic_calls
        yield Found(Text(context or "", msgid, plural), f"{path}:{lineno}")


_CALL = re.compile(r"(?<![\w.$])(?<!function )(tnc|tn|tc|t)\(\s*(?![\"'])(?!`[^`$]*`)")
"""A translation call whose first argument is not a literal string (a template literal with
no ``${...}`` is one)."""


def dynamic_calls(root: Path = PACKAGE / "web" / "js") -> list[str]:
    """The browser's translation calls whose msgid, context or plural is not a literal string:
    no catalogue could hold what they ask for."""
    out = set()
    for path, lineno, funcname, args in _js_calls(root):
        needed = [i for i in _JS_PARTS[funcname] if i is not None]
        if any(i >= len(args) or not isinstance(args[i], str) for i in needed):
            out.add((path, lineno, funcname))
    for script in sorted(root.rglob("*.js")):
        if script.name == "i18n.js":
            continue
        name = str(script.relative_to(root.parent.parent))
        for lineno, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            out.update((name, lineno, m.group(1)) for m in _CALL.finditer(line))
    return [f"{path}:{lineno}: {funcname}() needs literal strings"
            for path, lineno, funcname in sorted(out)]


def _js_calls(root: Path) -> Iterator[tuple[str, int, str, tuple[object, ...]]]:
    for path in sorted(root.rglob("*.js")):
        if path.name == "i18n.js":  # the functions themselves
            continue
        with path.open("rb") as f:
            for lineno, funcname, message, _comments in extract_javascript(
                    f, JS_KEYWORDS, [], {"parse_template_string": True}):
                args: tuple[object, ...] = (
                    tuple(message) if isinstance(message, tuple | list) else (message,))
                yield str(path.relative_to(root.parent.parent)), lineno, str(funcname), args


def data_texts() -> Iterator[Found]:
    """The texts of every game's data (:meth:`~triverse.core.game.Game.texts`)."""
    for name in available_games():
        for text in game_class(name).texts():
            yield Found(text, f"data/{name}")


def _text(context: str | None, message: str | tuple[str, ...]) -> Text:
    if isinstance(message, tuple):
        return Text(context or "", message[0], message[1] if len(message) > 1 else None)
    return Text(context or "", message)


def template(found: Iterable[Found]) -> Catalog:
    """The catalogue template of the texts found (each msgid once, in a stable order)."""
    catalog = _catalog(None)
    for item in sorted(found, key=lambda f: (f.text.context, f.text.msgid)):
        msgid: str | tuple[str, str] = (
            (item.text.msgid, item.text.plural) if item.text.plural else item.text.msgid)
        where = (item.where.split(":")[0], 0)  # the file, not the line (0: none)
        known = catalog.get(item.text.msgid, item.text.context or None)
        if known is not None:
            if where not in known.locations:
                known.locations.append(where)
            continue
        catalog.add(msgid, locations=[where], context=item.text.context or None)
    return catalog


HEADER = """\
# Triverse's texts{language}: made by `python -m triverse.i18n extract` (docs/i18n.md).
# The msgids are the English texts; a msgctxt tells where a text is shown."""
ENGLISH_NAMES = {"pl": "Polish", "fr": "French"}
_DATE = datetime(2026, 12, 2, tzinfo=UTC)
"""A fixed date for the catalogues' headers, so that an unchanged catalogue is written the same."""


def _catalog(lang: str | None) -> Catalog:
    name = f" in {ENGLISH_NAMES[lang]}" if lang else ""
    return Catalog(locale=lang, domain=DOMAIN, project="Triverse", version="1",
                   header_comment=HEADER.format(language=name), copyright_holder="Triverse",
                   msgid_bugs_address="see docs/i18n.md",
                   creation_date=_DATE, revision_date=_DATE, last_translator="Triverse",
                   language_team=LANGUAGES[lang] if lang else "", fuzzy=False)


def all_texts() -> list[Found]:
    """Every text of every source."""
    return [*python_texts(), *browser_texts(), *data_texts()]


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def dump(catalog: Catalog, locations: bool = False) -> bytes:
    """A catalogue as a ``.po`` file: the template with each msgid's files (no line numbers, so
    that moving code does not change it), a language's without them."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, no_location=not locations, omit_header=False,
             include_previous=False, include_lineno=False)
    return buffer.getvalue()


def update(languages: Iterable[str] = LANGUAGES) -> dict[str, int]:
    """Write the template and bring each language's catalogue up to date; the number of its
    untranslated entries, by language."""
    pot = template(all_texts())
    POT.parent.mkdir(parents=True, exist_ok=True)
    POT.write_bytes(dump(pot, locations=True))
    counts: dict[str, int] = {}
    for lang in languages:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        catalog = read(path, lang) if path.is_file() else _catalog(lang)
        catalog.update(pot, no_fuzzy_matching=True, update_header_comment=False,
                       update_creation_date=False)
        catalog.obsolete.clear()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(dump(catalog))
        counts[lang] = sum(1 for m in catalog if m.id and not _translated(m.string or ""))
    return counts


def _translated(string: str | tuple[str, ...] | list[str]) -> bool:
    return all(string) if isinstance(string, tuple | list) else bool(string)


def _fields(text: str) -> set[str]:
    return set(_FIELD.findall(text))


def problems(languages: Iterable[str] = LANGUAGES) -> list[str]:
    """What keeps the catalogues from matching the code: literal-less calls, and by language
    the msgids missing, untranslated, obsolete or with other ``{placeholders}``."""
    found = all_texts()
    pot = template(found)
    out = dynamic_calls()
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in pot if m.id}
    for lang in languages:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        if not path.is_file():
            out.append(f"{lang}: no catalogue at {path}")
            continue
        catalog = read(path, lang)
        have = {}
        for m in catalog:
            if m.id:
                have[(m.context, m.id if isinstance(m.id, str) else m.id[0])] = m
        for key in sorted(wanted - have.keys(), key=str):
            out.append(f"{lang}: missing {_show(key)}")
        for key in sorted(have.keys() - wanted, key=str):
            out.append(f"{lang}: obsolete {_show(key)} (no code uses it)")
        for key in sorted(wanted & have.keys(), key=str):
            out.extend(f"{lang}: {problem} {_show(key)}" for problem in _entry_problems(have[key]))
    return out


def _entry_problems(message: object) -> Iterator[str]:
    msgid = message.id  # type: ignore[attr-defined]
    string = message.string  # type: ignore[attr-defined]
    if message.fuzzy or not _translated(string):  # type: ignore[attr-defined]
        yield "untranslated"
        return
    ids = msgid if isinstance(msgid, tuple) else (msgid,)
    fields = set().union(*(_fields(i) for i in ids))
    strings = string if isinstance(string, tuple) else (string,)
    for s in strings:
        if not _fields(s) <= fields:
            yield f"placeholders {sorted(_fields(s) - fields)} unknown in"
        elif not isinstance(msgid, tuple) and _fields(s) != fields:
            yield f"placeholders {sorted(fields - _fields(s))} lost in"


def _show(key: tuple[str | None, str]) -> str:
    context, msgid = key
    return f"{msgid!r}" + (f" (context {context!r})" if context else "")
