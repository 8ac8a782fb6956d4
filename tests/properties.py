"""What the property tests of every game share: random legal deals of a game played with invariants checked as
they go, and the round trips every state must survive.

Random play chooses uniformly among the legal actions of all seats (so molodkas, redeals, exchanges and
doubles happen too).  Hypothesis explores seeds and choices; the seeded runs give the large counts.  The
scores each game's tests check are recomputed from the rule book, never with the engine's own scoring
functions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from engine import Action, DealResult, GameState, find_variant, load_state
from tests.helpers import check_invariants

Check = Callable[[GameState, Action], None]


def run(
    name: str,
    options: dict[str, Any],
    *,
    seed: int,
    deals: int,
    before: Check | None = None,
    views_every: int = 1,
) -> list[GameState]:
    """Play ``deals`` random deals, series after series; check invariants after every action (views every
    ``views_every`` actions).  Returns the finished or last states."""
    variant = find_variant(name)
    rng = random.Random(seed)
    states: list[GameState] = []
    played = 0
    step = 0
    while played < deals:
        state = variant.new_game(rng.getrandbits(40), options)
        states.append(state)
        while state.outcome is None and played + len(state.deals) < deals:
            action = rng.choice(state.all_legal_actions())
            if before is not None:
                before(state, action)
            state.apply(action)
            step += 1
            check_invariants(state, views=step % views_every == 0)
        played += len(state.deals)
    return states


def check_round_trips(states: list[GameState]) -> None:
    for state in states:
        copy = load_state(json.loads(json.dumps(state.to_dict())))
        assert copy == state
        assert find_variant(state.VARIANT).replay(state.seed, state.history, state.options) == state


def all_deals(states: list[GameState]) -> list[DealResult]:
    return [d for s in states for d in s.deals]
