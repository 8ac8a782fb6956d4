"""One presenter per game: every display decision that depends on the game lives here.

``presenter("czech")`` is the Czech game's; ``GAMES`` lists the games in the order the bot shows them.
"""

from __future__ import annotations

from bot.present.base import Presenter, Seating, game_title, teams_line
from bot.present.classic import ClassicPresenter
from bot.present.czech import CzechPresenter
from bot.present.four_card import FourCardPresenter

_PRESENTERS: dict[str, Presenter] = {p.name: p for p in (FourCardPresenter(), ClassicPresenter(), CzechPresenter())}
GAMES: tuple[str, ...] = tuple(_PRESENTERS)


def presenter(variant: str) -> Presenter:
    return _PRESENTERS[variant]


__all__ = ["GAMES", "Presenter", "Seating", "game_title", "presenter", "teams_line"]
