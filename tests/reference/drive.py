"""Drive the engine and a reference model side by side and compare them at every step.

This is the only module of the reference package that touches the engine, and only through its public
API: it reads the deal as dealt (chance is the engine's), converts cards and actions to and from plain
strings, and compares what both sides say.  No rule function of the engine is used.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine import Action, Card, EngineError, GameState, Kind, find_variant
from engine.games.czech.names import GERMAN_SUIT_NAME
from tests.reference.classic import Classic
from tests.reference.common import DealRecord, RefAction
from tests.reference.czech import Czech
from tests.reference.four_card import FourCard

Model = FourCard | Classic | Czech
Policy = Callable[[GameState, random.Random], Action]

# Which card symbol stands for each Czech suit: display data of the engine, not a rule.
CZECH_SYMBOLS = {name: suit.symbol for suit, name in GERMAN_SUIT_NAME["cs"].items()}


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


def new_model(state: GameState) -> Model:
    if state.VARIANT == "four_card":
        return FourCard(state.dealer)
    if state.VARIANT == "classic":
        opts = state.options
        return Classic(state.dealer, deck_size=opts.deck, redeal=opts.redeal, all_tricks=opts.all_tricks)
    return Czech(state.dealer, state.num_players, CZECH_SYMBOLS)


def hands_of(state: GameState) -> list[list[str]]:
    return [cards_text(hand) for hand in state.hands]


def hand_over_deal(state: GameState, model: Model) -> None:
    """Give the model the deal the engine has just dealt."""
    if isinstance(model, FourCard):
        model.start_deal(hands_of(state), cards_text(state.stock), str(state.trump_card))  # type: ignore[attr-defined]
    elif isinstance(model, Classic):
        model.start_deal(hands_of(state))
    else:
        model.start_deal(hands_of(state), cards_text(state.talon))  # type: ignore[attr-defined]


def expected_to_move(model: Model) -> int | None:
    if model.ending is not None:
        return None
    if isinstance(model, Classic) and model.owes_card_back is not None:
        return model.owes_card_back
    return model.turn


def model_totals(model: Model) -> list[int]:
    if isinstance(model, FourCard):
        return model.defeat
    return model.totals


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
    assert state.to_move == expected_to_move(model), f"{where}: to move {state.to_move} vs {expected_to_move(model)}"
    assert list(state.totals) == model_totals(model), f"{where}: totals {state.totals} vs {model_totals(model)}"
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
    if state.VARIANT == "classic":
        assert ("queen_caught" in got.events) == ("queen_caught" in expected.notes), f"{where}: C12 {got.events}"
    if state.VARIANT == "czech":
        assert ("double" in got.events) == ("double" in expected.notes), f"{where}: K6 {got.events}"


def check_ending(state: GameState, model: Model, where: str) -> None:
    ending, outcome = model.ending, state.outcome
    assert ending is not None and outcome is not None, f"{where}: ended {outcome} vs {ending}"
    assert set(outcome.winners) == set(ending.winners), f"{where}: winners {outcome} vs {ending}"
    assert set(outcome.losers) == set(ending.losers), f"{where}: losers {outcome} vs {ending}"
    if isinstance(model, FourCard):
        assert outcome.with_eggs == ending.with_eggs, f"{where}: F15 goats with eggs {outcome} vs {ending}"
    if isinstance(model, Classic):
        assert (outcome.reason == "no_trick") == ending.no_trick, f"{where}: C13 option {outcome} vs {ending}"
    if isinstance(model, Czech):
        assert tuple(outcome.table_points) == ending.table_points, f"{where}: K9 {outcome} vs {ending}"
    for seat in range(state.num_players):
        assert state.legal_actions(seat) == (), f"{where}: seat {seat} may still act after the end"


def probe(state: GameState, model: Model, rng: random.Random, where: str) -> bool:
    """Try one action the reference holds illegal and check that the engine refuses it untouched."""
    seat = rng.randrange(state.num_players)
    kinds = {
        "four_card": ["lead", "beat", "discard", "molodka"],
        "classic": ["play", "redeal", "exchange", "giveback"],
        "czech": ["play", "double"],
    }[state.VARIANT]
    kind = rng.choice(kinds)
    pool = list(model.hands[seat])
    if rng.random() < 0.2:
        other = rng.randrange(state.num_players)
        pool += model.hands[other]
    size = rng.randint(0, min(len(pool), 4 if state.VARIANT == "four_card" else 1))
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
    model = new_model(state)
    hand_over_deal(state, model)
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
            hand_over_deal(state, model)
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
                hand_over_deal(state, model)
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
