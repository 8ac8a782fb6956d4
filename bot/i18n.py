"""Every user-facing text, by message id, from the gettext catalogues in ``bot/locales``.

Each language is a ``locales/<lang>/LC_MESSAGES/kozel.po`` file whose message ids are symbolic
(``"lobby.title"``) and whose strings are ``str.format`` templates.  They are read once, at import, with
Babel's PO reader, so a translator edits one plain .po file and no compiled file has to be kept in step.
``t(lang, key, **values)`` formats a message; a language we do not speak falls back to English.  A message
about a number of things is a plural entry (``msgid``/``msgid_plural``, ``msgstr[0..n-1]``): ``tn(lang, key,
count, **values)`` picks its form with the rule of the catalogue's ``Plural-Forms`` header (Russian and Czech
have three forms, English two).  Tests check that every catalogue has every id of the English one, with the
same placeholders, none empty or fuzzy, and every plural entry with its language's number of forms.
Values are inserted as they are given: the caller escapes names for HTML.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from gettext import c2py
from importlib import resources
from typing import IO

from babel import Locale
from babel.messages.pofile import read_po

DEFAULT_LANGUAGE = "en"
DOMAIN = "kozel"
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "cs": "Čeština"}


class CatalogueError(ValueError):
    """A catalogue that cannot be used: unreadable, fuzzy or with empty messages."""


@dataclass(frozen=True)
class Plurals:
    """A catalogue's plural entries (message id → its forms) and the rule that picks a form for a number."""

    count: int
    rule: Callable[[int], int]
    forms: Mapping[str, tuple[str, ...]]


def read_catalogue(folder: str, handle: IO[bytes]) -> tuple[dict[str, str], Plurals]:
    raw = handle.read()
    ids = Counter(re.findall(rb'^msgid "(.+)"$', raw, flags=re.MULTILINE))
    if twice := sorted(i.decode() for i, n in ids.items() if n > 1):
        raise CatalogueError(f"{folder}: message ids given twice (only one would ever be shown): {twice}")
    catalog = read_po(io.BytesIO(raw), locale=folder, domain=DOMAIN, abort_invalid=True)
    messages: dict[str, str] = {}
    forms: dict[str, tuple[str, ...]] = {}
    for message in catalog:
        if not message.id:
            continue  # the header
        if isinstance(message.id, tuple):  # a plural entry: its key is the singular id
            strings = tuple(str(s) for s in message.string) if isinstance(message.string, tuple) else ()
            if message.fuzzy or not strings or not all(strings):
                raise CatalogueError(f"{folder}: plural message {message.id[0]!r} is fuzzy or empty")
            forms[str(message.id[0])] = strings
            continue
        if message.fuzzy or not message.string or not isinstance(message.string, str):
            raise CatalogueError(f"{folder}: message {message.id!r} is fuzzy, empty or plural")
        messages[str(message.id)] = message.string
    return messages, Plurals(catalog.num_plurals, c2py(catalog.plural_expr), forms)


def load_catalogues() -> dict[str, Mapping[str, str]]:
    """Every language in ``bot/locales``, as message id → template (plural entries go to ``PLURALS``)."""
    found: dict[str, Mapping[str, str]] = {}
    root = resources.files("bot").joinpath("locales")
    for folder in sorted(root.iterdir(), key=lambda f: f.name):
        path = folder.joinpath("LC_MESSAGES", f"{DOMAIN}.po")
        if not path.is_file():
            continue
        with path.open("rb") as handle:
            found[folder.name], PLURALS[folder.name] = read_catalogue(folder.name, handle)
    if DEFAULT_LANGUAGE not in found:
        raise CatalogueError(f"no {DEFAULT_LANGUAGE} catalogue in {root}")
    return found


PLURALS: dict[str, Plurals] = {}
CATALOGUES = load_catalogues()
LANGUAGES = tuple(sorted(CATALOGUES, key=lambda lang: (lang != DEFAULT_LANGUAGE, lang)))
EN = CATALOGUES[DEFAULT_LANGUAGE]


def pick_language(*candidates: str | None) -> str:
    """The first candidate we speak (``"ru-RU"`` counts as ``"ru"``), else English."""
    for code in candidates:
        if code:
            short = code.split("-")[0].lower()
            if short in CATALOGUES:
                return short
    return DEFAULT_LANGUAGE


def t(lang: str, key: str, **values: object) -> str:
    catalogue = CATALOGUES.get(lang, EN)
    template = catalogue.get(key) or EN[key]
    return template.format(**values) if values else template


def ordinal(lang: str, n: int) -> str:
    """``n`` as a place in a row is written in the language ("1st", "22nd"), by its ordinal forms (CLDR's, as
    Babel knows them: ``ordinal.one``, ``.two``, ``.few`` and ``.other`` of the catalogue)."""
    return t(lang, f"ordinal.{Locale.parse(lang if lang in CATALOGUES else DEFAULT_LANGUAGE).ordinal_form(n)}", n=n)


def tn(lang: str, key: str, count: int, **values: object) -> str:
    """The plural message ``key`` in the form for ``count`` (given to it as ``{count}`` too)."""
    plurals = PLURALS.get(lang, PLURALS[DEFAULT_LANGUAGE])
    forms = plurals.forms.get(key)
    if forms is None:
        plurals, forms = PLURALS[DEFAULT_LANGUAGE], PLURALS[DEFAULT_LANGUAGE].forms[key]
    index = plurals.rule(count)
    template = forms[index if 0 <= index < len(forms) else -1]
    return template.format(count=count, **values)
