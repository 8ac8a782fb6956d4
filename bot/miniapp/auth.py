"""Who is asking: a Mini App's ``initData``, checked as Telegram specifies.

Telegram opens the page with ``initData``, a query string whose ``hash`` is the hex HMAC-SHA-256 of every
other field (sorted by key, ``key=value`` joined by line feeds) under a key that is itself the HMAC-SHA-256 of
the bot's token keyed with ``WebAppData``.  Only the bot (and Telegram) can make it, so a request that carries
it comes from the person it names; ``auth_date`` says when Telegram made it, and an old one is refused.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode


class Unauthorized(Exception):
    """A request whose initData is missing, forged, altered or too old: answered 401, and nothing changes."""


@dataclass(frozen=True)
class AppUser:
    """The person the initData names, and what it says besides."""

    user_id: int
    first_name: str
    last_name: str
    language: str | None
    start_param: str | None  # what a t.me/<bot>/<app>?startapp= link carried (a game: "g123")


def secret_of(token: str) -> bytes:
    return hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign(fields: dict[str, str], token: str) -> str:
    """The initData Telegram would give the page for ``fields`` (what the embedded Bot API server gives the
    playground's page, and the tests their people)."""
    digest = hmac.new(secret_of(token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def verify(init_data: str | None, token: str, now: float, max_age: float) -> AppUser:
    """The person ``init_data`` names; ``Unauthorized`` for one that is missing, whose hash does not match
    (forged, or altered after Telegram made it), that is older than ``max_age`` seconds, or that names nobody."""
    if not init_data:
        raise Unauthorized("no initData")
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError:
        raise Unauthorized("initData is not a query string") from None
    given = fields.get("hash", "")
    expected = hmac.new(secret_of(token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given, expected):
        raise Unauthorized("initData's hash does not match")
    try:
        made = int(fields.get("auth_date", ""))
    except ValueError:
        raise Unauthorized("initData has no auth_date") from None
    if now - made > max_age:
        raise Unauthorized("initData is too old")
    try:
        user = json.loads(fields["user"])
        return AppUser(
            user_id=int(user["id"]),
            first_name=str(user.get("first_name", "")),
            last_name=str(user.get("last_name", "")),
            language=user.get("language_code"),
            start_param=fields.get("start_param"),
        )
    except (KeyError, TypeError, ValueError):
        raise Unauthorized("initData names no user") from None


def language_hint(init_data: str | None) -> str | None:
    """The language the initData's person uses, read without any check: only to say in his language why a
    request of his was refused."""
    try:
        fields = dict(parse_qsl(init_data or ""))
        language = json.loads(fields.get("user", "{}")).get("language_code")
    except (ValueError, AttributeError):
        return None
    return language if isinstance(language, str) else None


# --- which table a page shows -----------------------------------------------------------------------------

TICKET = re.compile(r"g(\d{1,12})_([A-Za-z0-9_-]{12})")


def ticket(game_id: int, token: str) -> str:
    """What names a game's table to the page (``g<game>_<mac>``, as ``startapp`` allows): only the bot can make
    it, and only its own buttons carry it, so a page shows a table only to somebody who was shown the link —
    the game's group, its players — never to one who counts through the games' numbers."""
    mac = hmac.new(secret_of(token), f"table:{game_id}".encode(), hashlib.sha256).digest()[:9]
    return f"g{game_id}_{base64.urlsafe_b64encode(mac).decode()}"


def game_of(given: str | None, token: str) -> int | None:
    """The game a ticket names; None for anything the bot did not make."""
    match = TICKET.fullmatch(given or "")
    if match is None:
        return None
    game_id = int(match.group(1))
    return game_id if hmac.compare_digest(ticket(game_id, token), match.group(0)) else None
