"""Four-card Kozel (yard rules): rules F1–F16 of this package's rules.md."""

from typing import TYPE_CHECKING

from engine.games.four_card import heuristics, worlds
from engine.games.four_card.rules import DECK, POINTS, FourCardOptions, FourCardState
from engine.players.contract import ComputerPlay, SearchTuning
from engine.registry import Variant, register

GAME = register(
    Variant(
        name="four_card",
        title="Four-card Kozel",
        state_class=FourCardState,
        options_model=FourCardOptions,
        players=(4,),
        deck=DECK,
        card_points=tuple(POINTS),
        computer=ComputerPlay(
            heuristic=heuristics.choose,
            build_world=worlds.build,
            infer=worlds.infer,
            unforeseen=worlds.unforeseen,
            unrevealed=worlds.unrevealed,
            decisions=worlds.decisions,
            tuning=SearchTuning(tree=False, weighted=False, racing=False),
        ),
        aliases=("4", "four", "4card", "yard", "четыре", "4карты"),
        compiled="engine.games.four_card.compiled",
    )
)

if TYPE_CHECKING:  # the type checker holds the bridge to what the searches ask of a compiled core
    from engine.compiled import CompiledGame
    from engine.games.four_card import compiled

    _bridge: CompiledGame = compiled
