"""The rules of the Kozel games: pure, replayable, with no I/O; each game is a package of engine.games.

>>> from engine import find_variant
>>> game = find_variant("four_card").new_game(seed=7)
>>> action = game.legal_actions(game.to_move)[0]
>>> game.apply(action)
"""

import engine.games  # noqa: F401 - each game registers itself on import
from engine.actions import Action, Kind
from engine.cards import Card, Rank, Suit, format_cards, parse_cards
from engine.errors import (
    EngineError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OptionsError,
    ParseError,
    UnknownVariantError,
)
from engine.registry import Variant, find_variant, load_state, variant_named, variant_names
from engine.state import DealResult, GameState, Layout, Options, Outcome, SeenPlay, SeenTrick, TrickRecord, View

__all__ = [
    "Action",
    "Card",
    "DealResult",
    "EngineError",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "Kind",
    "Layout",
    "NotYourTurnError",
    "Options",
    "OptionsError",
    "Outcome",
    "ParseError",
    "Rank",
    "SeenPlay",
    "SeenTrick",
    "Suit",
    "TrickRecord",
    "UnknownVariantError",
    "Variant",
    "View",
    "find_variant",
    "format_cards",
    "load_state",
    "parse_cards",
    "variant_named",
    "variant_names",
]
