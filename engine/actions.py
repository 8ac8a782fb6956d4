"""Actions: what a seat does.  Immutable, hashable, with a text form for logs and the database and a
compact form for Telegram button data.

An action's cards are kept in canonical order (by card code), so the same choice made by tapping cards in
any order is the same action.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from engine.cards import Card
from engine.errors import ParseError


class Kind(StrEnum):
    LEAD = "lead"  # F7: 1–4 cards of one suit
    BEAT = "beat"  # F8
    DISCARD = "discard"  # F8, face down
    MOLODKA = "molodka"  # F10
    PLAY = "play"  # C10/K4: one card to the trick
    REDEAL = "redeal"  # C6
    EXCHANGE = "exchange"  # C7: hand the single trump to the partner
    GIVE_BACK = "giveback"  # C7: the partner's plain card in return
    DOUBLE = "double"  # K6

    @property
    def letter(self) -> str:
        return _KIND_LETTER[self]


_KIND_LETTER = {
    Kind.LEAD: "l",
    Kind.BEAT: "b",
    Kind.DISCARD: "d",
    Kind.MOLODKA: "m",
    Kind.PLAY: "p",
    Kind.REDEAL: "r",
    Kind.EXCHANGE: "x",
    Kind.GIVE_BACK: "g",
    Kind.DOUBLE: "o",
}
_KIND_BY_LETTER = {v: k for k, v in _KIND_LETTER.items()}


class Action(NamedTuple):
    seat: int
    kind: Kind
    cards: tuple[Card, ...] = ()

    @classmethod
    def make(cls, seat: int, kind: Kind, cards: tuple[Card, ...] | list[Card] = ()) -> Action:
        """Build an action with its cards in canonical order."""
        return cls(seat, kind, tuple(sorted(cards)))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the text form ``"2 lead TH AH"`` (cards in any notation ``Card.parse`` accepts)."""
        parts = text.split()
        if len(parts) < 2 or not parts[0].isdigit():
            raise ParseError(f"not an action: {text!r}")
        try:
            kind = Kind(parts[1].lower())
        except ValueError:
            raise ParseError(f"unknown action kind {parts[1]!r} in {text!r}") from None
        return cls.make(int(parts[0]), kind, [Card.parse(p) for p in parts[2:]])

    def text(self) -> str:
        """The ASCII text form, the inverse of ``parse``."""
        return " ".join([str(self.seat), self.kind.value, *(c.ascii for c in self.cards)])

    def encode(self) -> str:
        """Compact form for button data: kind letter, seat, two hex digits per card (at most 11 chars)."""
        return self.kind.letter + str(self.seat) + "".join(f"{c.code:02x}" for c in self.cards)

    @classmethod
    def decode(cls, data: str) -> Action:
        """Inverse of ``encode``; raises ``ParseError`` for anything malformed."""
        if len(data) < 2 or len(data) % 2 or data[0] not in _KIND_BY_LETTER or not data[1].isdigit():
            raise ParseError(f"not an encoded action: {data!r}")
        try:
            codes = [int(data[i : i + 2], 16) for i in range(2, len(data), 2)]
        except ValueError:
            raise ParseError(f"not an encoded action: {data!r}") from None
        return cls.make(int(data[1]), _KIND_BY_LETTER[data[0]], [Card.from_code(c) for c in codes])

    @classmethod
    def coerce(cls, value: object) -> Action:
        """An action from an action or its text form (the pydantic validator)."""
        if isinstance(value, Action):
            return value
        if isinstance(value, str):
            return cls.parse(value)
        raise ParseError(f"not an action: {value!r}")

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls.coerce, serialization=core_schema.plain_serializer_function_ser_schema(Action.text)
        )

    def __str__(self) -> str:
        cards = " ".join(str(c) for c in self.cards)
        return f"seat {self.seat} {self.kind.value}" + (f" {cards}" if cards else "")

    def __repr__(self) -> str:
        return f"Action.parse({self.text()!r})"


def one_card_actions(kind: Kind, seats: int) -> list[list[Action]]:
    """``table[seat][card]``: the action of ``kind`` by ``seat`` with that one card, made once for the hot
    path (a one-card play is the most frequent action, and an action is an immutable value).  Codes that
    name no card hold a placeholder that is never looked up."""
    table = [[Action(seat, kind)] * 64 for seat in range(seats)]
    for seat in range(seats):
        for code in range(64):
            if 6 <= code & 15 <= 14:
                table[seat][code] = Action(seat, kind, (Card.from_code(code),))
    return table
