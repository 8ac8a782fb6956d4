"""Button data: at most 64 bytes, carrying the game, the state version and what the button does.

- ``g<game>:<version>:<payload>`` — a press in a hand message.  ``version`` is the number of actions the
  game had when the keyboard was drawn, so a press on an older keyboard is recognised as stale.  Payloads:
  ``a<action>`` an engine action (``Action.encode``), ``t<hex>`` toggle a card (four-card Kozel), ``c`` clear
  the selection, ``n`` a card that cannot be played now.
- ``L<game>:<op>`` — a press under a lobby message: ``leave``, ``start``, ``cancel``, ``seat<n>``.

Anything else, or anything longer than 64 bytes, is forged and refused by ``parse``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
_GAME = re.compile(r"g(\d{1,12}):(\d{1,7}):([a-z][0-9a-z]{0,20})")
_LOBBY = re.compile(r"L(\d{1,12}):(leave|start|cancel|seat[0-5])")


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


def checked(data: str) -> str:
    if len(data.encode()) > MAX_BYTES:
        raise ValueError(f"button data over {MAX_BYTES} bytes: {data!r}")
    return data


def parse(data: str | None) -> GamePress | LobbyPress:
    if not data or len(data.encode()) > MAX_BYTES:
        raise ForgedDataError(f"bad button data {data!r}")
    if match := _GAME.fullmatch(data):
        return GamePress(int(match[1]), int(match[2]), match[3])
    if match := _LOBBY.fullmatch(data):
        return LobbyPress(int(match[1]), match[2])
    raise ForgedDataError(f"bad button data {data!r}")
