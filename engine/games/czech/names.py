"""Card names for display.  Czech Kozel is played with German-suited cards (rules K2): the same card
objects, shown with the names of the German pattern, in Czech and in a plain English and Russian form.

These are data for the render layer; which language to use is the bot's choice.
"""

from __future__ import annotations

from engine.cards import Card, Rank, Suit

LANGUAGES = ("cs", "en", "ru")

GERMAN_SUIT_SYMBOL: dict[Suit, str] = {
    Suit.HEARTS: "♥",
    Suit.SPADES: "🍃",
    Suit.CLUBS: "🌰",
    Suit.DIAMONDS: "🔔",
}

GERMAN_SUIT_NAME: dict[str, dict[Suit, str]] = {
    "cs": {Suit.HEARTS: "červené", Suit.SPADES: "zelené", Suit.CLUBS: "žaludy", Suit.DIAMONDS: "kule"},
    "en": {Suit.HEARTS: "hearts", Suit.SPADES: "leaves", Suit.CLUBS: "acorns", Suit.DIAMONDS: "bells"},
    "ru": {Suit.HEARTS: "червы", Suit.SPADES: "листья", Suit.CLUBS: "жёлуди", Suit.DIAMONDS: "бубенцы"},
}

GERMAN_RANK_NAME: dict[str, dict[Rank, str]] = {
    "cs": {Rank.JACK: "spodek", Rank.QUEEN: "svršek", Rank.KING: "král", Rank.ACE: "eso"},
    "en": {Rank.JACK: "under", Rank.QUEEN: "over", Rank.KING: "king", Rank.ACE: "ace"},
    "ru": {Rank.JACK: "унтер", Rank.QUEEN: "обер", Rank.KING: "король", Rank.ACE: "туз"},
}

GERMAN_RANK_SHORT: dict[Rank, str] = {Rank.JACK: "U", Rank.QUEEN: "O", Rank.KING: "K", Rank.ACE: "A"}


def german_short(card: Card) -> str:
    """A short label for a button: ``"O🍃"`` for the kozel, ``"10♥"`` for the ten of hearts."""
    rank = GERMAN_RANK_SHORT.get(card.rank, card.rank.text)
    return rank + GERMAN_SUIT_SYMBOL[card.suit]


def german_name(card: Card, language: str = "cs") -> str:
    """The full name: ``"zelený svršek"``-style word order is not attempted; ``"svršek (zelené)"``."""
    lang = language if language in GERMAN_SUIT_NAME else "en"
    rank = GERMAN_RANK_NAME[lang].get(card.rank, card.rank.text)
    return f"{rank} ({GERMAN_SUIT_NAME[lang][card.suit]})"
