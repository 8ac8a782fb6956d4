"""How the shared driver (tests/reference/drive.py) plays Czech Kozel's reference model beside the engine:
what it is handed at each deal, and what it is compared on beyond what every game shares."""

from __future__ import annotations

from engine import DealResult, GameState, Outcome
from engine.games.czech.names import GERMAN_SUIT_NAME
from engine.games.czech.tests.reference import Czech
from tests.reference.common import DealRecord, Ending
from tests.reference.drive import cards_text, hands_of

KINDS: tuple[str, ...] = ("play", "double")
MOST_CARDS = 1
# Which card symbol stands for each Czech suit: display data of the engine, not a rule.
SYMBOLS = {name: suit.symbol for suit, name in GERMAN_SUIT_NAME["cs"].items()}


def new_model(state: GameState) -> Czech:
    return Czech(state.dealer, state.num_players, SYMBOLS)


def hand_over_deal(state: GameState, model: Czech) -> None:
    model.start_deal(hands_of(state), cards_text(state.talon))  # type: ignore[attr-defined]


def to_move(model: Czech) -> int | None:
    return None if model.ending is not None else model.turn


def totals(model: Czech) -> list[int]:
    return model.totals


def check_deal(got: DealResult, expected: DealRecord, where: str) -> None:
    assert ("double" in got.events) == ("double" in expected.notes), f"{where}: K6 {got.events}"


def check_ending(outcome: Outcome, ending: Ending, where: str) -> None:
    assert tuple(outcome.table_points) == ending.table_points, f"{where}: K9 {outcome} vs {ending}"
