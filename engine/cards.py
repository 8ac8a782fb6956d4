"""Cards: small immutable values with a parse/format pair and a compact integer code.

A card is an ``int`` subclass whose value is ``suit * 16 + rank`` (ranks 6…14, so codes stay below 64 and
fit one byte of Telegram button data or a small database column).  Every card is interned: ``Card.parse``
and ``Card.from_code`` return the same object for the same card.  Rank *order* and card *points* are not
properties of a card — each game defines them (rules F2/F3, C3–C5, K2/K5).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, ClassVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from engine.errors import ParseError


class Suit(IntEnum):
    """The four French suits, in the order rules F2 lists them.  Czech Kozel maps its German suits onto
    them: červené = hearts, zelené = spades, žaludy = clubs, kule = diamonds (see ``engine.games.czech.names``)."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        return _SUIT_LETTERS[self]


class Rank(IntEnum):
    """Face values.  The numeric value is only an identity, never an order of play."""

    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def text(self) -> str:
        return _RANK_TEXT[self]

    @property
    def letter(self) -> str:
        return _RANK_LETTERS[self]


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}
_SUIT_LETTERS = {Suit.SPADES: "S", Suit.CLUBS: "C", Suit.DIAMONDS: "D", Suit.HEARTS: "H"}
_RANK_TEXT = {r: str(int(r)) for r in Rank if r <= Rank.TEN} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANK_LETTERS = _RANK_TEXT | {Rank.TEN: "T"}

_SUIT_BY_TOKEN: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_BY_TOKEN[_s.symbol] = _s
    _SUIT_BY_TOKEN[_s.letter] = _s
_SUIT_BY_TOKEN["♤"] = Suit.SPADES
_SUIT_BY_TOKEN["♧"] = Suit.CLUBS
_SUIT_BY_TOKEN["♢"] = Suit.DIAMONDS
_SUIT_BY_TOKEN["♡"] = Suit.HEARTS
_RANK_BY_TOKEN: dict[str, Rank] = {}
for _r in Rank:
    _RANK_BY_TOKEN[_r.text] = _r
    _RANK_BY_TOKEN[_r.letter] = _r


class Card(int):
    """A playing card.  ``Card.parse("10♥") == Card.parse("TH")``; ``str(card)`` gives ``"10♥"``."""

    __slots__ = ()
    _interned: ClassVar[dict[int, Card]] = {}

    def __new__(cls, suit: Suit, rank: Rank) -> Card:
        code = int(suit) * 16 + int(rank)
        card = cls._interned.get(code)
        if card is None:
            card = super().__new__(cls, code)
            cls._interned[code] = card
        return card

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card with this compact code; raises ``ParseError`` for a code that names no card."""
        card = cls._interned.get(code)
        if card is not None:
            return card
        suit, rank = divmod(code, 16)
        if not (0 <= suit <= 3 and Rank.SIX <= rank <= Rank.ACE):
            raise ParseError(f"no card has the code {code!r}")
        return cls(Suit(suit), Rank(rank))

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        """Pickle by code, so a card sent to another process comes back as the interned card."""
        return (Card.from_code, (int(self),))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"10♥"``, ``"TH"``, ``"th"``, ``"10h"``, ``"Q♠"`` …"""
        token = text.strip().upper()
        if len(token) < 2:
            raise ParseError(f"not a card: {text!r}")
        rank = _RANK_BY_TOKEN.get(token[:-1])
        suit = _SUIT_BY_TOKEN.get(token[-1])
        if rank is None or suit is None:
            raise ParseError(f"not a card: {text!r}")
        return cls(suit, rank)

    @property
    def suit(self) -> Suit:
        return Suit(self >> 4)

    @property
    def rank(self) -> Rank:
        return Rank(self & 15)

    @property
    def code(self) -> int:
        return int(self)

    @property
    def ascii(self) -> str:
        """The two-letter form used in logs and the database: ``"TH"``."""
        return self.rank.letter + self.suit.letter

    @classmethod
    def coerce(cls, value: object) -> Card:
        """A card from a card, its code or its text (the pydantic validator)."""
        if isinstance(value, Card):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return cls.from_code(value)
        if isinstance(value, str):
            return cls.parse(value)
        raise ParseError(f"not a card: {value!r}")

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls.coerce, serialization=core_schema.plain_serializer_function_ser_schema(int)
        )

    def __str__(self) -> str:
        return self.rank.text + self.suit.symbol

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas: ``"AS 10♥, 7c"``."""
    return tuple(Card.parse(token) for token in text.replace(",", " ").split())


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(c) for c in cards)


def full_deck(ranks: tuple[Rank, ...]) -> tuple[Card, ...]:
    """Every card of the given ranks in all four suits, in a fixed canonical order (suit, then rank)."""
    return tuple(Card(s, r) for s in Suit for r in ranks)


RANKS_36: tuple[Rank, ...] = tuple(Rank)
RANKS_32: tuple[Rank, ...] = tuple(r for r in Rank if r != Rank.SIX)
