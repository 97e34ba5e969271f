"""Triverse in English, Polish and French: gettext catalogues, read with Babel.

The catalogues are gettext ``.po`` files, ``locale/<lang>/LC_MESSAGES/triverse.po`` beside this
module, made and checked by ``python -m triverse.i18n`` (:mod:`triverse.i18n.catalogue`).
English is the msgids themselves. The same catalogues serve the CLI (this module's
:func:`_`, :func:`ngettext`, ...), the server's pages and, as JSON (:func:`browser_catalogue`),
the browser.

>>> with language("pl"):
...     _("Rules")
'Zasady'
>>> _("Rules")
'Rules'

Polish has three plural forms (gettext's ``Plural-Forms``, from CLDR through Babel):

>>> drew = "{who} drew a tile|{who} drew {count} tiles"
>>> with language("pl"):
...     [game_message("trident", "drew", drew, n).format(who="Ania", count=n)
...      for n in (1, 2, 5, 22)]
['Ania dobiera płytkę', 'Ania dobiera 2 płytki', 'Ania dobiera 5 płytek', 'Ania dobiera 22 płytki']
>>> negotiate("fr-CA,fr;q=0.9,en;q=0.8")
'fr'
>>> negotiate("de-DE,de;q=0.9")
'en'
"""

from __future__ import annotations

import contextlib
import gettext
import io
import os
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES: Mapping[str, str] = {"en": "English", "pl": "Polski", "fr": "Français"}
"""The languages Triverse speaks: code and own name."""

DEFAULT = "en"
DOMAIN = "triverse"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_current: ContextVar[str] = ContextVar("triverse_language", default=DEFAULT)


def po_path(lang: str) -> Path:
    """Where the catalogue of ``lang`` lives."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The gettext translations of ``lang`` (English, or an unknown language: the msgids)."""
    if lang == DEFAULT or lang not in LANGUAGES or not po_path(lang).is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang).open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def language_code(value: str | None) -> str | None:
    """The Triverse language a locale name or tag means (``pl_PL.UTF-8`` and ``pl-PL`` mean
    ``pl``), or None.

    >>> [language_code(v) for v in ("pl_PL.UTF-8", "fr-CA", "de", "C")]
    ['pl', 'fr', None, None]
    """
    if not value:
        return None
    primary = value.replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return primary if primary in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, as gettext reads it: ``LANGUAGE`` (a colon-separated
    list), then ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; English when none is spoken here.

    >>> language_from_env({"LANGUAGE": "de:fr", "LANG": "pl_PL.UTF-8"})
    'fr'
    >>> language_from_env({"LANG": "pl_PL.UTF-8"})
    'pl'
    >>> language_from_env({})
    'en'
    """
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if not value:
            continue
        for part in value.split(":") if name == "LANGUAGE" else [value]:
            code = language_code(part)
            if code:
                return code
        if name != "LANGUAGE":  # a set LC_ALL or LANG decides, even for a language not spoken
            return DEFAULT
    return DEFAULT


def negotiate(accept_language: str | None) -> str:
    """The language an ``Accept-Language`` header asks for, by its quality values."""
    if not accept_language:
        return DEFAULT
    asked: list[tuple[float, int, str]] = []
    for index, item in enumerate(accept_language.split(",")):
        tag, _, rest = item.strip().partition(";")
        quality = 1.0
        if rest.strip().startswith("q="):
            try:
                quality = float(rest.strip()[2:])
            except ValueError:
                quality = 0.0
        code = language_code(tag.strip())
        if code and quality > 0:
            asked.append((-quality, index, code))
    return min(asked)[2] if asked else DEFAULT


def set_language(lang: str) -> None:
    """Make ``lang`` the language of this context (the CLI calls it once)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: Triverse speaks {', '.join(LANGUAGES)}")
    _current.set(lang)


def current_language() -> str:
    """The language of this context."""
    return _current.get()


@contextlib.contextmanager
def language(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside a ``with`` block."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: Triverse speaks {', '.join(LANGUAGES)}")
    token = _current.set(lang)
    try:
        yield
    finally:
        _current.reset(token)


def _(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for ``n`` in the current language."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in ``context``, in the current language."""
    return translations(_current.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """A plural in a context."""
    return translations(_current.get()).npgettext(context, singular, plural, n)


def N_(message: str) -> str:  # gettext's name: "mark, translate where shown"
    """``message`` unchanged: marks a constant for the catalogue, translated where it is shown."""
    return message


def game_message(game: str, code: str, template: str, count: int | None = None) -> str:
    """A game's message template (docs/messages.md) in the current language. A template
    ``"one|many"`` is a plural, chosen by ``count``; the catalogue keeps it under the context
    ``"<game>:<code>"``.

    >>> with language("pl"):
    ...     game_message("triangles", "again", "{who} plays again")
    '{who} gra ponownie'
    """
    context = f"{game}:{code}"
    if "|" in template:
        one, _sep, many = template.partition("|")
        return npgettext(context, one, many, 1 if count is None else count)
    return pgettext(context, template)


BROWSER_SOURCES = ("web/", "data/")
"""Where the texts the browser shows are written: its scripts, and the games' data."""


@cache
def browser_texts() -> frozenset[tuple[str | None, str]]:
    """The (context, msgid) of every text the browser shows, from the template's locations (the
    CLI's texts are left out of the browser's catalogue)."""
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as f:
        template = read_po(f, domain=DOMAIN)
    return frozenset(
        (m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template
        if m.id and any(path.startswith(BROWSER_SOURCES) for path, _ in m.locations))


@cache
def browser_catalogue(lang: str) -> dict[str, Any]:
    """The catalogue of ``lang`` for the browser (``web/js/i18n.js``): ``messages`` maps each
    msgid (``"context\\u0004msgid"`` with a context) the browser shows (:func:`browser_texts`)
    to its text or its list of plural forms; untranslated entries are left out, so that the
    browser shows the English."""
    messages: dict[str, Any] = {}
    if lang != DEFAULT and lang in LANGUAGES and po_path(lang).is_file():
        from babel.messages.pofile import read_po

        wanted = browser_texts()
        with po_path(lang).open("rb") as f:
            catalog = read_po(f, locale=lang, domain=DOMAIN)
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            if (message.context, msgid) not in wanted:
                continue
            key = f"{message.context}\u0004{msgid}" if message.context else msgid
            if isinstance(message.string, tuple):
                if all(message.string):
                    messages[key] = list(message.string)
            elif message.string:
                messages[key] = message.string
    return {"lang": lang, "messages": messages}
