"""Czech Kozel, each for himself with penalty points, 3 to 6 players: rules K1–K10 of this package's
rules.md."""

from typing import TYPE_CHECKING

from engine.games.czech import heuristics, worlds
from engine.games.czech.rules import DECK, PENALTY, CzechOptions, CzechState
from engine.players.contract import ComputerPlay, SearchTuning
from engine.registry import Variant, register

GAME = register(
    Variant(
        name="czech",
        title="Czech Kozel",
        state_class=CzechState,
        options_model=CzechOptions,
        players=(3, 4, 5, 6),
        deck=DECK,
        card_points=tuple(PENALTY),
        computer=ComputerPlay(
            heuristic=heuristics.choose,
            build_world=worlds.build,
            tuning=SearchTuning(tree=True, weighted=True, racing=True),
            infer=worlds.infer,
        ),
        aliases=("cz", "чешский", "чех", "cesky", "český"),
        compiled="engine.games.czech.compiled",
        samples=({"players": 4}, {"players": 3}, {"players": 5}, {"players": 6}),
    )
)

if TYPE_CHECKING:  # the type checker holds the bridge to what the searches ask of a compiled core
    from engine.compiled import CompiledGame
    from engine.games.czech import compiled

    _bridge: CompiledGame = compiled
