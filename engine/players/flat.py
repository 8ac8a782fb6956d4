"""Flat determinized Monte Carlo with inference and racing: the *strong* computer player's search in the
team games, and the *expert*'s in every game with another valuation of a candidate (``FlatSearch._leaf``).

Each round samples one world that agrees with the seat's view (``engine.players.worlds``) and plays every
candidate still in the race on to the end of the deal in that same world, with the basic heuristics for all
hands (common random numbers: the candidates are compared on the same cards).  What it adds to ``strong1``:

* the announcements before the first lead are candidates like any card — the redeal (C6: the world is dealt
  again from a seed nobody knows, and the value is the new deal's) and going out of trumps (C7: the partner
  gives a card back by the heuristic);
* in a game whose tuning says so (``SearchTuning.weighted``) each world is weighted by how well it explains
  the others' plays so far (``search.likelihood``: a factor ``MISS`` per card the heuristics, holding that
  world's cards, would not have played), so the averages lean to the layouts the play points to;
* racing: after ``WARMUP`` rounds, a candidate whose weighted mean trails the leader's by more than ``RACE``
  standard errors of their paired difference leaves the race, and the rounds left go to the contenders;
  the search ends when one is left.  Only in a game whose tuning says so (``SearchTuning.racing``): where
  racing measured weaker, every candidate plays every round.

It stops on its time budget (keeping ``1 - SAFETY`` of it in reserve) or after a fixed number of playouts
(reproducible tests and arenas).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from engine.actions import Action
from engine.clock import perf
from engine.players.contract import Situation, heuristic, tuning
from engine.players.search import EXTRAS, candidates, finish, likelihood, record
from engine.players.worlds import Knowledge
from engine.state import GameState, View

WARMUP = 8  # rounds every candidate plays before any may leave the race
RACE = 2.5  # standard errors of the paired difference by which a candidate must trail to leave
SAFETY = 0.9  # the share of the budget the rounds may use: the rest absorbs a slow round or a busy machine

# How a search values a candidate in a world: (the world after the candidate, the deciding seat, the deal's
# index, whether the candidate is waiting, whether an earlier candidate was valued in this same world).
Leaf = Callable[[GameState, int, int, bool, bool], float]


def playout_leaf(state: GameState, seat: int, deal: int, waiting: bool, same_world: bool) -> float:
    """The deal played to its end by the heuristics for every seat: ``strong``'s valuation."""
    return finish(state, deal)[seat]


@dataclass(frozen=True)
class FlatSearch:
    name: ClassVar[str] = "strong"
    budget: float | None = 0.5
    worlds: int | None = None  # instead of the budget, the playouts of this many worlds for every candidate
    weighted: bool = True
    racing: bool = True
    extras: bool = True  # the redeal (C6) and going out of trumps (C7) are searched too
    clock: Callable[[], float] = perf  # the budget's clock: the caller's, or the process's
    label: str = "strong"  # the level its playouts are counted under

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        assert view.seat is not None
        legal = view.legal if self.extras else tuple(a for a in view.legal if a.kind not in EXTRAS)
        if not self.extras and len(legal) < len(view.legal):
            hint = heuristic(view.variant)(Situation.of_view(view), False)
            if hint is not None and hint.kind in EXTRAS:
                return hint
        options = candidates(view, legal)
        if len(options) == 1:
            return options[0]
        return self._search(view, options, rng)

    def _search(self, view: View, options: list[Action | None], rng: random.Random) -> Action | None:
        seat = view.seat
        assert seat is not None
        started = self.clock()
        knowledge = Knowledge(view)
        weigh = self.weighted and tuning(view.variant).weighted and any(p.seat != seat for p in view.deal_log)
        n = len(options)
        alive = list(range(n))
        values: list[list[float]] = [[] for _ in range(n)]  # per round, while the candidate is in the race
        weights: list[float] = []
        done = rounds = 0
        racing = self.racing and tuning(view.variant).racing
        leaf = self._leaf(view)
        while len(alive) > 1:
            world = knowledge.world(rng)
            world.seed = rng.getrandbits(32)  # a redeal (C6) deals cards nobody can know yet
            weights.append(likelihood(world, seat, rng) if weigh else 1.0)
            deal = len(world.deals)  # counted before a candidate that ends the deal is applied
            for k, i in enumerate(alive):
                state = world.fork() if k < len(alive) - 1 else world
                option = options[i]
                if option is not None:
                    state.apply(option)
                values[i].append(leaf(state, seat, deal, option is None, k > 0))
            done += len(alive)
            rounds += 1
            if racing and rounds >= WARMUP:
                alive = _race(alive, values, weights)
            if self.worlds is not None and done >= self.worlds * n:
                break
            if self.budget is not None and out_of_time(started, self.clock(), rounds, self.budget):
                break
        record(self.label, done)
        return options[max(alive, key=lambda i: _mean(values[i], weights))]

    def _leaf(self, view: View) -> Leaf:
        """How this decision's candidates are valued."""
        return playout_leaf


def out_of_time(started: float, now: float, rounds: int, budget: float) -> bool:
    """Whether one more round, as long as the mean of the ``rounds`` done since ``started``, would not finish
    within the share ``SAFETY`` of the budget."""
    return now + (now - started) / rounds > started + SAFETY * budget


def _mean(values: list[float], weights: list[float]) -> float:
    w = weights[: len(values)]
    return sum(v * x for v, x in zip(values, w, strict=True)) / sum(w)


def _race(alive: list[int], values: list[list[float]], weights: list[float]) -> list[int]:
    """The candidates still in the race: those not clearly behind the leader on the rounds they share."""
    leader = max(alive, key=lambda i: _mean(values[i], weights))
    best = values[leader]
    keep = []
    for i in alive:
        if i == leader:
            keep.append(i)
            continue
        diffs = [b - v for b, v in zip(best, values[i], strict=False)]
        w = weights[: len(diffs)]
        total = sum(w)
        mean = sum(d * x for d, x in zip(diffs, w, strict=True)) / total
        var = sum(x * (d - mean) ** 2 for d, x in zip(diffs, w, strict=True)) / total
        effective = total * total / sum(x * x for x in w)
        if mean <= 0 or mean <= RACE * math.sqrt(var / effective):
            keep.append(i)
    return keep
