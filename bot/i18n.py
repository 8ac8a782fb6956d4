"""Every user-facing text, by message id, from the gettext catalogues in ``bot/locales``.

Each language is a ``locales/<lang>/LC_MESSAGES/kozel.po`` file whose message ids are symbolic
(``"lobby.title"``) and whose strings are ``str.format`` templates.  They are read once, at import, with
Babel's PO reader, so a translator edits one plain .po file and no compiled file has to be kept in step.
``t(lang, key, **values)`` formats a message; a language we do not speak falls back to English.  Tests check
that every catalogue has every id of the English one, with the same placeholders, none empty or fuzzy.
Values are inserted as they are given: the caller escapes names for HTML.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources

from babel.messages.pofile import read_po

DEFAULT_LANGUAGE = "en"
DOMAIN = "kozel"
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "cs": "Čeština"}


class CatalogueError(ValueError):
    """A catalogue that cannot be used: unreadable, fuzzy or with empty messages."""


def load_catalogues() -> dict[str, Mapping[str, str]]:
    """Every language in ``bot/locales``, as message id → template."""
    found: dict[str, Mapping[str, str]] = {}
    root = resources.files("bot").joinpath("locales")
    for folder in sorted(root.iterdir(), key=lambda f: f.name):
        path = folder.joinpath("LC_MESSAGES", f"{DOMAIN}.po")
        if not path.is_file():
            continue
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=folder.name, domain=DOMAIN, abort_invalid=True)
        messages: dict[str, str] = {}
        for message in catalog:
            if not message.id:
                continue  # the header
            if message.fuzzy or not message.string or not isinstance(message.string, str):
                raise CatalogueError(f"{folder.name}: message {message.id!r} is fuzzy, empty or plural")
            messages[str(message.id)] = message.string
        found[folder.name] = messages
    if DEFAULT_LANGUAGE not in found:
        raise CatalogueError(f"no {DEFAULT_LANGUAGE} catalogue in {root}")
    return found


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
