"""How the shared driver (tests/reference/drive.py) plays classic Kozel's reference model beside the engine:
what it is handed at each deal, and what it is compared on beyond what every game shares."""

from __future__ import annotations

from engine import DealResult, GameState, Outcome
from engine.games.classic.tests.reference import Classic
from tests.reference.common import DealRecord, Ending
from tests.reference.drive import hands_of

KINDS: tuple[str, ...] = ("play", "redeal", "exchange", "giveback")
MOST_CARDS = 1


def new_model(state: GameState) -> Classic:
    options = state.options
    return Classic(state.dealer, deck_size=options.deck, redeal=options.redeal, all_tricks=options.all_tricks)


def hand_over_deal(state: GameState, model: Classic) -> None:
    model.start_deal(hands_of(state))


def to_move(model: Classic) -> int | None:
    if model.ending is not None:
        return None
    return model.owes_card_back if model.owes_card_back is not None else model.turn


def totals(model: Classic) -> list[int]:
    return model.totals


def check_deal(got: DealResult, expected: DealRecord, where: str) -> None:
    assert ("queen_caught" in got.events) == ("queen_caught" in expected.notes), f"{where}: C12 {got.events}"


def check_ending(outcome: Outcome, ending: Ending, where: str) -> None:
    assert (outcome.reason == "no_trick") == ending.no_trick, f"{where}: C13 option {outcome} vs {ending}"
