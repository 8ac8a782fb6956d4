"""Button data, parsed once into typed presses.  At most 64 bytes, carrying the game, the state version and
what the button does.

- ``g<game>:<version>:<payload>`` — a press in a hand message.  ``version`` is the number of actions the
  game had when the keyboard was drawn, so a press on an older keyboard is recognised as stale.  Payloads:
  ``a<action>`` an engine action (``Action.encode``) → ``Play``; ``t<hex>`` toggle a card (four-card Kozel)
  → ``Toggle``; ``c`` clear the selection → ``Clear``; ``n`` a card that cannot be played now → ``Unplayable``.
- ``L<game>:<op>`` — a press about a game as a whole: in its lobby ``leave``, ``start``, ``cancel``, ``bot``
  (add a computer player), ``unbot`` (remove one) → ``Lobby(LobbyOp)``; ``seat<n>`` → ``Sit``; while it runs
  ``back`` ("I'm back") → ``Back``, ``vote`` (to cancel it) → ``Vote`` and ``kick<n>`` (hand seat n to a
  computer player) → ``Kick``.
- ``s:<setting>=<value>`` — a press in a chat's /settings menu (the chat is the message's) → ``Setting``.

Anything else, or anything longer than 64 bytes, is forged and refused by ``parse``: no press falls through
to another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from engine import Action, Card, EngineError

MAX_BYTES = 64
_GAME = re.compile(r"g(\d{1,12}):(\d{1,7}):([a-z][0-9a-z]{0,20})")
_LOBBY = re.compile(r"L(\d{1,12}):(leave|start|cancel|bot|unbot|back|vote|seat[0-5]|kick[0-5])")
_SETTING = re.compile(r"s:([a-z_]{1,20})=([a-z0-9_]{1,20})")


class ForgedDataError(ValueError):
    """Button data that this bot never sent."""


class LobbyOp(StrEnum):
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    ADD_COMPUTER = "bot"
    REMOVE_COMPUTER = "unbot"


def checked(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"button data over {MAX_BYTES} bytes: {data!r}")
    return data


# --- presses in a hand message --------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    game_id: int
    version: int
    action: Action

    def data(self) -> str:
        return checked(f"g{self.game_id}:{self.version}:a{self.action.encode()}")


@dataclass(frozen=True)
class Toggle:
    game_id: int
    version: int
    card: Card

    def data(self) -> str:
        return checked(f"g{self.game_id}:{self.version}:t{self.card.code:02x}")


@dataclass(frozen=True)
class Clear:
    game_id: int
    version: int

    def data(self) -> str:
        return checked(f"g{self.game_id}:{self.version}:c")


@dataclass(frozen=True)
class Unplayable:
    game_id: int
    version: int

    def data(self) -> str:
        return checked(f"g{self.game_id}:{self.version}:n")


HandPress = Play | Toggle | Clear | Unplayable


# --- presses about a game as a whole ----------------------------------------------------------------------


@dataclass(frozen=True)
class Lobby:
    game_id: int
    op: LobbyOp

    def data(self) -> str:
        return checked(f"L{self.game_id}:{self.op.value}")


@dataclass(frozen=True)
class Sit:
    game_id: int
    seat: int

    def data(self) -> str:
        return checked(f"L{self.game_id}:seat{self.seat}")


@dataclass(frozen=True)
class Back:
    game_id: int

    def data(self) -> str:
        return checked(f"L{self.game_id}:back")


@dataclass(frozen=True)
class Vote:
    game_id: int

    def data(self) -> str:
        return checked(f"L{self.game_id}:vote")


@dataclass(frozen=True)
class Kick:
    game_id: int
    seat: int

    def data(self) -> str:
        return checked(f"L{self.game_id}:kick{self.seat}")


@dataclass(frozen=True)
class Setting:
    key: str
    value: str

    def data(self) -> str:
        return checked(f"s:{self.key}={self.value}")


Press = Play | Toggle | Clear | Unplayable | Lobby | Sit | Back | Vote | Kick | Setting


def parse(data: str | None) -> Press:
    """The press a button's data stands for; ``ForgedDataError`` for anything this bot never sends."""
    if not data or len(data.encode()) > MAX_BYTES:
        raise ForgedDataError(f"bad button data {data!r}")
    if match := _GAME.fullmatch(data):
        return _hand_press(int(match[1]), int(match[2]), match[3], data)
    if match := _LOBBY.fullmatch(data):
        game_id, op = int(match[1]), match[2]
        if op.startswith("seat"):
            return Sit(game_id, int(op.removeprefix("seat")))
        if op.startswith("kick"):
            return Kick(game_id, int(op.removeprefix("kick")))
        if op == "back":
            return Back(game_id)
        if op == "vote":
            return Vote(game_id)
        return Lobby(game_id, LobbyOp(op))
    if match := _SETTING.fullmatch(data):
        return Setting(match[1], match[2])
    raise ForgedDataError(f"bad button data {data!r}")


def _hand_press(game_id: int, version: int, payload: str, data: str) -> HandPress:
    head, rest = payload[0], payload[1:]
    try:
        if head == "a":
            return Play(game_id, version, Action.decode(rest))
        if head == "t" and len(rest) == 2:
            return Toggle(game_id, version, Card.from_code(int(rest, 16)))
    except (ValueError, EngineError):
        raise ForgedDataError(f"bad button data {data!r}") from None
    if payload == "c":
        return Clear(game_id, version)
    if payload == "n":
        return Unplayable(game_id, version)
    raise ForgedDataError(f"bad button data {data!r}")
