"""The engine's fast paths agree with the slow ways they replace (issue 18: a faster engine).

The pins of ``tests/test_engine_speed_equivalence.py`` say that nothing a game can observe changed; these
tests check each shortcut against its plain definition, over more positions than the pins visit.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import find_variant
from engine.actions import Action
from engine.registry import samples
from engine.simulate import simulate
from engine.state import GameState, deal_round_robin, shuffle

GAMES = samples(every=True)


def every_seat_asked(state: GameState) -> list[Action]:
    """All seats' legal actions by the definition: each seat's own list, built afresh, seat by seat."""
    if state.outcome is not None:
        return []
    return [a for seat in range(state.num_players) for a in state._legal(seat)]


@pytest.mark.parametrize("length", [0, 1, 2, 5, 16, 32, 36])
def test_shuffle_draws_what_random_shuffle_draws(length: int) -> None:
    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        cards: list[Any] = list(range(length))
        expected = list(cards)
        shuffle(ours, cards)
        theirs.shuffle(expected)
        assert cards == expected
        assert ours.getrandbits(64) == theirs.getrandbits(64)  # the same bits were drawn, no more


@pytest.mark.parametrize(("players", "per_hand"), [(4, 4), (4, 9), (4, 8), (3, 10), (5, 6), (6, 5)])
def test_deal_round_robin_gives_each_seat_its_cards_in_turn(players: int, per_hand: int) -> None:
    deck: list[Any] = list(range(40))
    for dealer in range(players):
        hands = deal_round_robin(deck, dealer, players, per_hand)
        expected: list[list[Any]] = [[] for _ in range(players)]
        for i in range(per_hand * players):
            expected[(dealer + 1 + i) % players].append(deck[i])
        assert hands == expected


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_all_legal_actions_are_every_seats_own_in_seat_order(name: str, options: dict[str, Any]) -> None:
    """The shortcut that asks only the seat to move (``_others_may_act``) never drops anyone's action."""
    variant = find_variant(name)
    rng = random.Random(5)
    shortcuts = 0
    for game in range(30):
        state = variant.new_game(rng.getrandbits(32), options)
        while state.outcome is None and len(state.deals) < 3:
            expected = every_seat_asked(state)
            shortcuts += not state._others_may_act()
            assert state.all_legal_actions() == expected
            assert [a for s in range(state.num_players) for a in state.legal_actions(s)] == expected
            if game % 2:  # a seat asked first, then everybody: the partly filled cache gives the same
                state._cache = {}
                state.legal_actions(rng.randrange(state.num_players))
                assert state.all_legal_actions() == expected
            state.apply(rng.choice(expected))
    assert shortcuts > 100  # the shortcut was taken


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_all_legal_actions_is_a_new_list_each_time(name: str, options: dict[str, Any]) -> None:
    state = find_variant(name).new_game(3, options)
    state.apply(state.all_legal_actions()[0])
    first = state.all_legal_actions()
    expected = list(first)
    first.clear()
    assert state.all_legal_actions() == expected
    assert [a for s in range(state.num_players) for a in state.legal_actions(s)] == expected


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_simulate_chooses_as_random_choice_does(name: str, options: dict[str, Any]) -> None:
    """``simulate`` writes ``rng.choice`` out: the same seed plays the same actions as ``play_random``."""
    seen: list[Action] = []
    summary = simulate(name, 6, 21, options, on_action=lambda state: seen.append(state.history[-1]))
    variant = find_variant(name)
    rng = random.Random(21)
    expected: list[Action] = []
    deals = 0
    while deals < 6:
        state = variant.new_game(rng.getrandbits(48), variant.options(options))
        while state.outcome is None and deals + len(state.deals) < 6:
            action = rng.choice(state.all_legal_actions())
            expected.append(action)
            state.apply(action)
        deals += len(state.deals)
    assert seen == expected
    assert summary["actions"] == len(expected)
