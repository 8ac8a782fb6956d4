"""What people are shown: pure renders of messages, keyboards and menus (``render``, ``menus``,
``leaderboard``) and the pictures (``pictures``, ``result_pictures``, ``charts``, drawn with ``lettering``,
``bidi`` and ``typeface``).  Every display decision that depends on the game is its presenter's, which
lives in the game's package (``engine/games/<game>/present.py``, the one part of a game that belongs to the
bot).

``presenter("czech")`` is the Czech game's; ``GAMES`` lists the games in the order the bot shows them.
"""

from __future__ import annotations

import importlib
from functools import cache

from bot.present.base import Presenter, Seating, game_title, teams_line
from engine import find_variant, variant_names

GAMES: tuple[str, ...] = tuple(variant_names())


@cache
def presenter(variant: str) -> Presenter:
    """The game's presenter (``PRESENTER`` of its package's ``present`` module)."""
    shown = importlib.import_module(f"{find_variant(variant).package}.present").PRESENTER
    if not isinstance(shown, Presenter) or shown.name != variant:
        raise TypeError(f"{variant}'s present module does not hold its presenter")
    return shown


__all__ = ["GAMES", "Presenter", "Seating", "game_title", "presenter", "teams_line"]
