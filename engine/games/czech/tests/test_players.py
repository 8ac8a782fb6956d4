"""Czech Kozel's computer players: its heuristics (the basic level) and what its rules tell the worlds they
sample, and the searches where its rules ask for something of them."""

from __future__ import annotations

import random

from engine import Action, Card, GameState, find_variant
from engine.games.czech.heuristics import choose as czech_choice
from engine.players.contract import Situation
from engine.players.worlds import Knowledge
from tests.helpers import act


def table(state: GameState, seat: int) -> Situation:
    return Situation.of_view(state.view(seat))


def test_k4_basic_throws_the_kozel_when_void() -> None:
    """K4/K5: unable to follow, the basic player gets rid of the kozel (13 penalty points)."""
    layout = "7H 8H 9H TH JH QH KH AH | QS 7C 8C 9C TC JC QC KC | 7S 8S 9S TS JS KS AS AC | 7D 8D 9D TD JD QD KD AD"
    state = find_variant("czech").new_game(1, {"players": 4}, stacked=[layout], dealer=3)
    act(state, "0 play 7H")
    assert czech_choice(table(state, 1)) == Action.parse("1 play QS")


def test_k6_the_doubler_keeps_the_kozel_in_every_world() -> None:
    """K6: the doubler keeps the kozel until he plays it."""
    state = find_variant("czech").new_game(5, {"players": 4})
    holder = next(s for s in range(4) if Card.parse("QS") in state.hands[s])
    act(state, f"{holder} double QS")
    observer = (holder + 1) % 4
    knowledge = Knowledge(state.view(observer))
    rng = random.Random(1)
    assert all(Card.parse("QS") in knowledge.world(rng).hands[holder] for _ in range(30))
