"""Drive the engine and a reference model side by side and compare them at every step.

This is the only module of the reference package that touches the engine, and only through its public
API: it reads the deal as dealt (chance is the engine's), converts cards and actions to and from plain
strings, and compares what both sides say.  No rule function of the engine is used.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import pytest

from engine import Action, Card, DealResult, EngineError, GameState, Kind, Outcome, find_variant
from tests.reference.common import DealRecord, Ending, RefAction

Policy = Callable[[GameState, random.Random], Action]


class Model(Protocol):
    """What the driver (``tests/reference/drive.py``) asks of every game's reference model."""

    hands: list[list[str]]
    dealer: int
    leader: int
    ending: Ending | None
    last_deal: DealRecord | None
    last_trick: tuple[int, list[str]] | None
    seen: Counter[str]

    def legal(self, seat: int) -> set[RefAction]: ...

    def apply(self, seat: int, kind: str, cards: list[str]) -> str | None:
        """Apply an action: None, "trick", "redeal" or "deal" (the deal ended)."""
        ...


class Driving(Protocol):
    """How the driver hands a game's deals to its reference model and what it compares beyond what every
    game shares: the game package's ``tests/driving.py``, the one part of its reference that reads the
    engine (through its public API only)."""

    KINDS: tuple[str, ...]  # the kinds of action a probe tries
    MOST_CARDS: int  # the most cards one action holds

    def new_model(self, state: GameState, /) -> Model: ...

    def hand_over_deal(self, state: GameState, model: Any, /) -> None:
        """Give the model the deal the engine has just dealt."""
        ...

    def to_move(self, model: Any, /) -> int | None: ...

    def totals(self, model: Any, /) -> list[int]: ...

    def check_deal(self, got: DealResult, expected: DealRecord, where: str, /) -> None: ...

    def check_ending(self, outcome: Outcome, ending: Ending, where: str, /) -> None: ...


def driving(name: str) -> Driving:
    """The game's way of driving its reference model (its package's ``tests/driving.py``)."""
    found: Driving = importlib.import_module(f"{find_variant(name).package}.tests.driving")
    return found


_TEXT: dict[int, str] = {}


def text(card: Card) -> str:
    """``str(card)``, remembered (it is called a great many times)."""
    found = _TEXT.get(card)
    if found is None:
        found = _TEXT[card] = str(card)
    return found


def cards_text(cards: Any) -> list[str]:
    return [text(c) for c in cards]


def to_ref(action: Action) -> RefAction:
    return (action.seat, action.kind.value, frozenset(text(c) for c in action.cards))


def to_engine(seat: int, kind: str, cards: list[str] | frozenset[str]) -> Action:
    return Action.make(seat, Kind(kind), [Card.parse(c) for c in cards])


@dataclass
class Tally:
    """What a comparison run covered."""

    games: int = 0
    deals: int = 0
    steps: int = 0
    probes: int = 0
    seen: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.deals += other.deals
        self.steps += other.steps
        self.probes += other.probes
        self.seen.update(other.seen)


# --- policies ---------------------------------------------------------------------------------------------


def uniform(state: GameState, rng: random.Random) -> Action:
    """Uniform among the legal actions of every seat (so out-of-turn actions happen too)."""
    return rng.choice(state.all_legal_actions())


def favour(kinds: set[str], chance: float, never: frozenset[str] = frozenset()) -> Policy:
    """Take an action of one of ``kinds`` with probability ``chance`` when there is one; never take ``never``."""

    def policy(state: GameState, rng: random.Random) -> Action:
        legal = [a for a in state.all_legal_actions() if a.kind.value not in never]
        special = [a for a in legal if a.kind.value in kinds]
        if special and rng.random() < chance:
            return rng.choice(special)
        return rng.choice(legal)

    return policy


class Steer:
    """Plays, deal by deal, the best of ``tries`` random lines found on forks of the engine's state.

    Only chooses among the engine's legal actions (the comparison judges every step of the chosen line);
    ``goal`` scores the fork after the deal ended.  After ``deals`` steered deals it plays ``then``."""

    def __init__(
        self,
        goal: Callable[[GameState], float],
        *,
        tries: int,
        deals: int,
        inner: Policy = uniform,
        then: Policy = uniform,
        enough: float = 1.0,
    ) -> None:
        self.goal, self.tries, self.deals, self.inner, self.then, self.enough = goal, tries, deals, inner, then, enough
        self.plan: deque[Action] = deque()

    def __call__(self, state: GameState, rng: random.Random) -> Action:
        if self.plan:
            return self.plan.popleft()
        if len(state.deals) >= self.deals:
            return self.then(state, rng)
        best: tuple[float, list[Action]] | None = None
        for _ in range(self.tries):
            fork = state.fork()
            done = len(fork.deals)
            line: list[Action] = []
            while len(fork.deals) == done:
                action = self.inner(fork, rng)
                fork.apply(action)
                line.append(action)
            score = self.goal(fork)
            if best is None or score > best[0]:
                best = (score, line)
            if score >= self.enough:
                break
        assert best is not None
        self.plan.extend(best[1])
        return self.plan.popleft()


# --- the comparison ---------------------------------------------------------------------------------------


def hands_of(state: GameState) -> list[list[str]]:
    return [cards_text(hand) for hand in state.hands]


def check_position(state: GameState, model: Model, where: str) -> None:
    for seat in range(state.num_players):
        engine_legal = {to_ref(a) for a in state.legal_actions(seat)}
        ref_legal = model.legal(seat)
        if engine_legal != ref_legal:
            only_engine = sorted(f"{s} {k} {' '.join(sorted(c))}" for s, k, c in engine_legal - ref_legal)
            only_ref = sorted(f"{s} {k} {' '.join(sorted(c))}" for s, k, c in ref_legal - engine_legal)
            raise AssertionError(
                f"{where}: legal actions of seat {seat} differ; engine only: {only_engine}; reference only: {only_ref}"
            )
    game = driving(state.VARIANT)
    assert state.to_move == game.to_move(model), f"{where}: to move {state.to_move} vs {game.to_move(model)}"
    assert list(state.totals) == game.totals(model), f"{where}: totals {state.totals} vs {game.totals(model)}"
    if state.outcome is not None:
        return
    assert [sorted(h) for h in hands_of(state)] == [sorted(h) for h in model.hands], f"{where}: hands differ"
    assert (state.dealer, state.leader) == (model.dealer, model.leader), (
        f"{where}: dealer/leader {(state.dealer, state.leader)} vs {(model.dealer, model.leader)}"
    )


def check_trick(state: GameState, model: Model, where: str) -> None:
    assert model.last_trick is not None
    winner, cards = model.last_trick
    record = state.tricks_done[-1]  # the engine's record of the trick, discards included
    assert record.winner == winner, f"{where}: trick won by {record.winner} in the engine, {winner} in the reference"
    played = sorted(str(c) for p in record.plays for c in p.cards)
    assert played == sorted(cards), f"{where}: trick cards {played} vs {sorted(cards)}"


def check_deal(state: GameState, expected: DealRecord, where: str) -> None:
    got = state.deals[-1]
    actual = DealRecord(
        dealer=got.dealer,
        leader=got.leader,
        points=tuple(got.points),
        score=tuple(got.score),
        totals=tuple(got.totals),
        tricks=tuple(got.tricks),
        eggs=got.eggs,
        last_trick_winner=got.last_trick_winner,
        notes=expected.notes,
    )
    assert actual == expected, f"{where}: deal result\n engine    {actual}\n reference {expected}"
    driving(state.VARIANT).check_deal(got, expected, where)


def check_ending(state: GameState, model: Model, where: str) -> None:
    ending, outcome = model.ending, state.outcome
    assert ending is not None and outcome is not None, f"{where}: ended {outcome} vs {ending}"
    assert set(outcome.winners) == set(ending.winners), f"{where}: winners {outcome} vs {ending}"
    assert set(outcome.losers) == set(ending.losers), f"{where}: losers {outcome} vs {ending}"
    driving(state.VARIANT).check_ending(outcome, ending, where)
    for seat in range(state.num_players):
        assert state.legal_actions(seat) == (), f"{where}: seat {seat} may still act after the end"


def probe(state: GameState, model: Model, rng: random.Random, where: str) -> bool:
    """Try one action the reference holds illegal and check that the engine refuses it untouched."""
    seat = rng.randrange(state.num_players)
    game = driving(state.VARIANT)
    kind = rng.choice(game.KINDS)
    pool = list(model.hands[seat])
    if rng.random() < 0.2:
        other = rng.randrange(state.num_players)
        pool += model.hands[other]
    size = rng.randint(0, min(len(pool), game.MOST_CARDS))
    cards = rng.sample(sorted(set(pool)), min(size, len(set(pool))))
    if (seat, kind, frozenset(cards)) in model.legal(seat):
        return False
    action = to_engine(seat, kind, cards)
    before = len(state.history)
    try:
        state.apply(action)
    except EngineError:
        pass
    else:
        raise AssertionError(f"{where}: the engine accepted {action}, which the reference holds illegal")
    assert len(state.history) == before
    return True


def compare_game(
    name: str,
    options: dict[str, Any],
    seed: int,
    *,
    max_deals: int = 10_000,
    stacked: list[str] | tuple[str, ...] = (),
    dealer: int | None = None,
    policy: Policy = uniform,
    probe_rate: float = 0.05,
) -> Tally:
    """Play one series or game with ``policy`` and compare engine and reference at every step."""
    variant = find_variant(name)
    state = variant.new_game(seed, options, stacked=list(stacked), dealer=dealer)
    game = driving(name)
    model = game.new_model(state)
    game.hand_over_deal(state, model)
    rng = random.Random(f"reference/{seed}")
    tally = Tally(games=1)
    while True:
        where = f"{name} {options} seed={seed} deal={state.deal_no} action={len(state.history)}"
        check_position(state, model, where)
        if state.outcome is not None or len(state.deals) >= max_deals:
            break
        if rng.random() < probe_rate and probe(state, model, rng, where):
            tally.probes += 1
        action = policy(state, rng)
        where = f"{name} {options} seed={seed} deal={state.deal_no} action={len(state.history)} ({action.text()})"
        deals_before, tricks_before, attempt_before = len(state.deals), len(state.tricks_done), state.attempt
        state.apply(action)
        seat, kind, cards = to_ref(action)
        event = model.apply(seat, kind, sorted(cards))
        tally.steps += 1
        if event is None:
            assert len(state.deals) == deals_before and state.attempt == attempt_before, f"{where}: deal ended early"
            assert len(state.tricks_done) == tricks_before, f"{where}: the engine ended a trick, not the reference"
        elif event == "trick":
            assert len(state.deals) == deals_before, f"{where}: the engine ended the deal after a trick"
            check_trick(state, model, where)
        elif event == "redeal":
            assert len(state.deals) == deals_before and state.attempt == attempt_before + 1, f"{where}: C6"
            game.hand_over_deal(state, model)
        else:
            assert len(state.deals) == deals_before + 1, f"{where}: the reference ended the deal, the engine did not"
            assert model.last_deal is not None
            check_deal(state, model.last_deal, where)
            tally.deals += 1
            model.seen.update(model.last_deal.notes)
            if model.ending is not None:
                check_ending(state, model, where)
            else:
                assert state.outcome is None, f"{where}: the engine ended the series: {state.outcome}"
                game.hand_over_deal(state, model)
    tally.seen.update(model.seen)
    return tally


def compare_many(
    name: str,
    options: dict[str, Any],
    seed: int,
    deals: int,
    *,
    policy_for: Callable[[], Policy] = lambda: uniform,
    probe_rate: float = 0.05,
) -> Tally:
    """Series after series of random play until ``deals`` deals were compared."""
    rng = random.Random(seed)
    total = Tally()
    while total.deals < deals:
        total.add(
            compare_game(
                name,
                options,
                rng.getrandbits(40),
                max_deals=deals - total.deals,
                policy=policy_for(),
                probe_rate=probe_rate,
            )
        )
    return total


# --- deals for the tests ------------------------------------------------------------------------------------


def runs(deals: tuple[int, list[int]]) -> list[Any]:
    """(deals, seed offset) for the plain run, then each chunk of the thorough run."""
    quick, chunks = deals
    thorough = [
        pytest.param(n, 1000 * (i + 1), id=f"{n}-chunk{i}", marks=pytest.mark.reference) for i, n in enumerate(chunks)
    ]
    return [pytest.param(quick, 0, id=f"{quick}"), *thorough]


def four_card_policy() -> Policy:
    return favour({"molodka"}, 0.25)


def classic_policy() -> Policy:
    return favour({"exchange", "redeal"}, 0.1)


def layout(hands: list[str], deck: list[str], rng: random.Random, cut: int | None = None) -> str:
    """A stacked deal: the given hands, the other cards shuffled after ``/`` (and ``@ cut`` if given)."""
    used = {c for h in hands for c in h.split()}
    rest = [c for c in deck if c not in used]
    rng.shuffle(rest)
    text = " | ".join(hands) + " / " + " ".join(rest)
    return text if cut is None else f"{text} @ {cut}"


def random_layout(deck: list[str], per_hand: int, players: int, rng: random.Random) -> str:
    cards = list(deck)
    rng.shuffle(cards)
    hands = [" ".join(cards[i * per_hand : (i + 1) * per_hand]) for i in range(players)]
    return layout(hands, deck, rng)


def eggs(state: GameState) -> float:
    return 1.0 if state.deals[-1].eggs else 0.0
