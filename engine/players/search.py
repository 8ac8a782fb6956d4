"""Information-set Monte Carlo tree search (single observer): the *strong* computer player.

One tree is grown from the deciding seat's point of view.  Each iteration samples a fresh world that agrees
with the seat's view (``engine.players.worlds``), walks down the tree along the actions legal in that world —
the seat's own candidates at the root, then every mover's actions in turn — choosing among the children the
world allows by UCB1 with availability counts, adds one new node, plays the deal on with the basic heuristics
for all hands, and credits each edge on the path with the deal's value for the seat who took it.  Because the
walk re-samples the hidden cards every time, a node stands for what its mover can see, not for one layout.
Below the root the heuristics' move is tried first and other moves join as a node's visits grow (progressive
widening): a decision affords a few hundred walks, too few to spend on replies nobody would make.

In a game whose tuning says so (``SearchTuning.weighted``) the worlds are also weighted by how likely the
others' play makes them: a pool of worlds is sampled once per decision, each weighted by ``MISS`` per card
another seat played where the basic heuristics would have played another with that world's cards, and every
walk draws its world from the pool by weight.  (Where a stock is drawn, the game rebuilds the hands the plays
were made from.)

The root also holds the announcements before the first lead, so they are decided by simulated value like any
card: the redeal (C6, the deal is dealt again and its value is the new deal's) and going out of trumps (C7,
the partner gives a card back by the heuristic).  The candidate played at the root is the most visited one.

It stops on its time budget or after a fixed number of iterations (reproducible tests and arenas).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from engine.actions import Action, Kind
from engine.clock import perf
from engine.players.contract import Situation, heuristic, tuning
from engine.players.worlds import Knowledge
from engine.registry import find_variant
from engine.state import GameState, View

EXTRAS = (Kind.REDEAL, Kind.EXCHANGE)  # announcements no playout makes (C6, C7)
EXPLORATION = 0.7  # UCB1 constant, in units of the spread of the values seen so far
WIDENING = 10  # a node below the root considers 1 + sqrt(visits / WIDENING) of its mover's actions
MISS = 0.7  # the weight a world loses for each play of another seat the heuristics would not have made
POOL = 40  # worlds sampled and weighted once per decision (within a quarter of the budget), drawn by weight
SAFETY = 0.9  # the share of the budget the walks may use: the rest absorbs a slow walk or a busy machine
STATS: dict[str, list[int]] = {}  # level -> [decisions searched, playouts], per process, for the arena


def record(level: str, playouts: int) -> None:
    counts = STATS.setdefault(level, [0, 0])
    counts[0] += 1
    counts[1] += playouts


@dataclass
class _Node:
    visits: int = 0
    total: float = 0.0
    available: int = 0  # how many walks reached the parent while this action was legal there
    children: dict[Action | None, _Node] = field(default_factory=dict)


def likelihood(world: GameState, seat: int, rng: random.Random) -> float:
    """How well a sampled world explains the others' plays so far in this deal: ``MISS`` for every play of
    another seat where the basic heuristics, in that world's situation, would have played another (for a
    face-down play: another kind of play).  The game says what each situation was (``ComputerPlay.decisions``:
    where a stock is drawn, a hand then is rebuilt from draws chosen at random); 1 in a game whose tuning does
    not weigh worlds."""
    if not tuning(world.VARIANT).weighted:
        return 1.0
    choose = heuristic(world.VARIANT)
    weight = 1.0
    for situation, played, face_down in find_variant(world.VARIANT).computer.decisions(world, seat, rng):
        expected = choose(situation, True)
        if expected is not None and (expected.kind != played.kind if face_down else expected != played):
            weight *= MISS
    return weight


def heuristic_step(state: GameState) -> None:
    """The seat to move plays the basic heuristics' action (a playout's step)."""
    mover = state.to_move
    assert mover is not None
    action = heuristic(state.VARIANT)(Situation.of_state(state, mover), True)
    if action is None:
        action = next(a for a in state.legal_actions(mover) if a.kind not in EXTRAS)
    state.apply(action)


def finish(state: GameState, deal: int) -> list[float]:
    """Play deal number ``deal`` to its end with the heuristics for every seat: its value for each seat."""
    while len(state.deals) == deal and state.outcome is None:
        heuristic_step(state)
    result = state.deals[deal]
    return [state.deal_value(result, s) for s in range(state.num_players)]


def candidates(view: View, actions: Sequence[Action]) -> list[Action | None]:
    """The choices a search compares: ``actions``, and waiting (None) when it is not the seat's turn."""
    options: list[Action | None] = list(actions)
    if view.to_move != view.seat:
        options.append(None)  # out of turn: acting now is compared with waiting
    return options


@dataclass(frozen=True)
class SearchPlayer:
    name: ClassVar[str] = "strong"
    budget: float | None = 0.5
    iterations: int | None = None
    weighted: bool = True
    clock: Callable[[], float] = perf  # the budget's clock: the caller's, or the process's

    def choose(self, view: View, rng: random.Random) -> Action | None:
        if not view.legal:
            return None
        assert view.seat is not None
        options = candidates(view, view.legal)
        if len(options) == 1:
            return options[0]
        return self._search(view, options, rng)

    def _search(self, view: View, options: list[Action | None], rng: random.Random) -> Action | None:
        seat = view.seat
        assert seat is not None
        started = self.clock()
        knowledge = Knowledge(view)
        pool: list[GameState] = []
        weights: list[float] = []
        if self.weighted and tuning(view.variant).weighted and any(p.seat != seat for p in view.deal_log):
            while len(pool) < POOL:  # at most a quarter of the budget
                pool.append(knowledge.world(rng))
                weights.append(likelihood(pool[-1], seat, rng))
                if self.budget is not None and len(pool) >= 4 and self.clock() > started + self.budget / 4:
                    break
        walks_started = self.clock() if pool and self.budget is not None else started
        root = _Node(children={o: _Node() for o in options})
        low, high = math.inf, -math.inf
        done = 0
        while True:
            world = rng.choices(pool, weights)[0].fork() if pool else knowledge.world(rng)
            world.seed = rng.getrandbits(32)  # a redeal (C6) deals cards nobody can know yet
            deal = len(world.deals)
            path: list[tuple[_Node, int]] = []
            node, mover, legal = root, seat, options
            while True:
                for option in legal:
                    child = node.children.get(option)
                    if child is not None:
                        child.available += 1
                choice = self._select(node, legal, world, mover, node is root, spread=max(high - low, 1.0), rng=rng)
                expanded = choice not in node.children or node.children[choice].visits == 0
                child = node.children.setdefault(choice, _Node(available=1))
                path.append((child, mover))
                if choice is not None:
                    world.apply(choice)
                node = child
                if expanded or len(world.deals) != deal or world.outcome is not None:
                    break
                assert world.to_move is not None
                mover = world.to_move
                legal = [a for a in world.legal_actions(mover) if a.kind not in EXTRAS]
            values = finish(world, deal)
            for child, who in path:
                child.visits += 1
                child.total += values[who]
            low, high = min(low, values[seat]), max(high, values[seat])
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if self.budget is not None:
                now = self.clock()
                if now + 2 * (now - walks_started) / done > started + SAFETY * self.budget:
                    break  # the next walk might not finish in time (one walk's worth kept in reserve)
        record(self.name, done)
        return max(options, key=lambda o: (root.children[o].visits, _mean(root.children[o])))

    @staticmethod
    def _select(
        node: _Node,
        legal: list[Action | None],
        world: GameState,
        mover: int,
        at_root: bool,
        *,
        spread: float,
        rng: random.Random,
    ) -> Action | None:
        """The action to follow from ``node``: at the root every candidate is tried once, then UCB1; below
        it the heuristic's move first, and further moves only as the node's visits grow (progressive
        widening), so that the few walks a decision affords are not spent on poor replies."""
        if at_root:
            fresh = [o for o in legal if node.children[o].visits == 0]
            if fresh:
                return rng.choice(fresh)
        else:
            tried = [o for o in legal if o in node.children]
            width = 1 + int(math.sqrt(node.visits / WIDENING))
            if len(tried) < width:
                hint = heuristic(world.VARIANT)(Situation.of_state(world, mover), True)
                if hint is not None and hint in legal and hint not in node.children:
                    return hint
                untried = [o for o in legal if o not in node.children]
                if untried:
                    return rng.choice(untried)
            if not tried:
                return rng.choice(legal)
            legal = tried
        return max(legal, key=lambda o: _ucb(node.children[o], spread))


def _mean(node: _Node) -> float:
    return node.total / node.visits if node.visits else -math.inf


def _ucb(node: _Node, spread: float) -> float:
    return node.total / node.visits + EXPLORATION * spread * math.sqrt(math.log(max(node.available, 1)) / node.visits)
