"""The engine's speed-ups change nothing a game can observe: each game's pins (its package's
``tests/test_pins.py``) were taken from the engine before them (c74825d), and a fork plays on alike.

A game is its seed plus its actions, and users' stored games replay from them, so the same seed must deal the
same cards, and the same position must list the same legal actions in the same order (random play and the
computer players pick by index).  Each pin is the SHA-256 of seeded random play over several series: every
seat's legal actions at every step, the hands, the action taken, the view of the seat to move now and then,
every deal's record, each series' outcome and its JSON snapshot.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import find_variant
from engine.registry import samples


@pytest.mark.parametrize(("name", "options"), samples(every=True))
def test_a_fork_is_equal_independent_and_plays_on_alike(name: str, options: dict[str, Any]) -> None:
    state = find_variant(name).new_game(11, options)
    rng = random.Random(3)
    for _ in range(25):
        state.apply(rng.choice(state.all_legal_actions()))
    twin = state.fork()
    assert twin == state and twin.to_dict() == state.to_dict()
    before = state.to_dict()
    for hand in twin.hands:
        hand.clear()
    twin.history.append(twin.history[0])
    twin.trick.clear()
    twin.tricks_done.clear()
    twin.totals[0] += 1
    assert state.to_dict() == before  # nothing of the original was shared
    twin = state.fork()
    for _ in range(40):
        if state.outcome is not None:
            break
        legal = state.all_legal_actions()
        assert twin.all_legal_actions() == legal
        action = rng.choice(legal)
        state.apply(action)
        twin.apply(action)
    assert twin == state
