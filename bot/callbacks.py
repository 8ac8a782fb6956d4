"""Button data: at most 64 bytes, carrying the game, the state version and what the button does.

- ``g<game>:<version>:<payload>`` — a press in a hand message.  ``version`` is the number of actions the
  game had when the keyboard was drawn, so a press on an older keyboard is recognised as stale.  Payloads:
  ``a<action>`` an engine action (``Action.encode``), ``t<hex>`` toggle a card (four-card Kozel), ``c`` clear
  the selection, ``n`` a card that cannot be played now.
- ``L<game>:<op>`` — a press about a game as a whole: in its lobby ``leave``, ``start``, ``cancel``,
  ``seat<n>``, ``bot`` (add a computer player), ``unbot`` (remove one); while it runs ``back`` ("I'm back"),
  ``vote`` (to cancel it) and ``kick<n>`` (hand seat n to a computer player).
- ``s:<setting>=<value>`` — a press in a chat's /settings menu (the chat is the message's).

Anything else, or anything longer than 64 bytes, is forged and refused by ``parse``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
_GAME = re.compile(r"g(\d{1,12}):(\d{1,7}):([a-z][0-9a-z]{0,20})")
_LOBBY = re.compile(r"L(\d{1,12}):(leave|start|cancel|seat[0-5]|bot|unbot|back|vote|kick[0-5])")
_SETTING = re.compile(r"s:([a-z_]{1,20})=([a-z0-9_]{1,20})")


class ForgedDataError(ValueError):
    """Button data that this bot never sent."""


@dataclass(frozen=True)
class GamePress:
    game_id: int
    version: int
    payload: str

    def data(self) -> str:
        return checked(f"g{self.game_id}:{self.version}:{self.payload}")


@dataclass(frozen=True)
class LobbyPress:
    game_id: int
    op: str

    def data(self) -> str:
        return checked(f"L{self.game_id}:{self.op}")


@dataclass(frozen=True)
class SettingPress:
    key: str
    value: str

    def data(self) -> str:
        return checked(f"s:{self.key}={self.value}")


def checked(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"button data over {MAX_BYTES} bytes: {data!r}")
    return data


def parse(data: str | None) -> GamePress | LobbyPress | SettingPress:
    if not data or len(data.encode()) > MAX_BYTES:
        raise ForgedDataError(f"bad button data {data!r}")
    if match := _GAME.fullmatch(data):
        return GamePress(int(match[1]), int(match[2]), match[3])
    if match := _LOBBY.fullmatch(data):
        return LobbyPress(int(match[1]), match[2])
    if match := _SETTING.fullmatch(data):
        return SettingPress(match[1], match[2])
    raise ForgedDataError(f"bad button data {data!r}")
