"""Classic Kozel, jacks, queens and clubs are trumps: rules C1–C14 of this package's rules.md."""

from typing import TYPE_CHECKING

from engine.games.classic import heuristics, worlds
from engine.games.classic.rules import DECK_36, POINTS, ClassicOptions, ClassicState
from engine.players.contract import ComputerPlay, SearchTuning
from engine.registry import Variant, register

GAME = register(
    Variant(
        name="classic",
        title="Classic Kozel",
        state_class=ClassicState,
        options_model=ClassicOptions,
        players=(4,),
        deck=DECK_36,
        card_points=tuple(POINTS),
        computer=ComputerPlay(
            heuristic=heuristics.choose,
            build_world=worlds.build,
            tuning=SearchTuning(tree=False, weighted=True, racing=True),
            infer=worlds.infer,
        ),
        aliases=("классика", "klassik", "классический", "klasický", "klasicky"),
        compiled="engine.games.classic.compiled",
        samples=({}, {"deck": 32, "redeal": False}),
        typical_deal=1,  # C7 and C9 come into play from the second deal
    )
)

if TYPE_CHECKING:  # the type checker holds the bridge to what the searches ask of a compiled core
    from engine.compiled import CompiledGame
    from engine.games.classic import compiled

    _bridge: CompiledGame = compiled
