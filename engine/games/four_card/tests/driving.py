"""How the shared driver (tests/reference/drive.py) plays four-card Kozel's reference model beside the
engine: what it is handed at each deal, and what it is compared on beyond what every game shares."""

from __future__ import annotations

from engine import DealResult, GameState, Outcome
from engine.games.four_card.tests.reference import FourCard
from tests.reference.common import DealRecord, Ending
from tests.reference.drive import cards_text, hands_of

KINDS: tuple[str, ...] = ("lead", "beat", "discard", "molodka")
MOST_CARDS = 4  # F7: a lead of up to four cards


def new_model(state: GameState) -> FourCard:
    return FourCard(state.dealer)


def hand_over_deal(state: GameState, model: FourCard) -> None:
    model.start_deal(hands_of(state), cards_text(state.stock), str(state.trump_card))  # type: ignore[attr-defined]


def to_move(model: FourCard) -> int | None:
    return None if model.ending is not None else model.turn


def totals(model: FourCard) -> list[int]:
    return model.defeat


def check_deal(got: DealResult, expected: DealRecord, where: str) -> None:
    """Nothing beyond the common record."""


def check_ending(outcome: Outcome, ending: Ending, where: str) -> None:
    assert outcome.with_eggs == ending.with_eggs, f"{where}: F15 goats with eggs {outcome} vs {ending}"
