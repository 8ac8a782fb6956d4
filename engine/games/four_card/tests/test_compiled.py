"""The compiled search core against the pure engine (issue 32): the same legal actions of every seat in every
position, the same position after every step and the same deal scores, over random deals of four-card Kozel
(rules F6–F14); and a rule bug planted in the core's source fails that comparison."""

from __future__ import annotations

import functools
import random
from pathlib import Path
from types import ModuleType

import pytest

from engine import Action, Card, Kind, Suit, find_variant
from engine.games.four_card import compiled as fc
from engine.games.four_card.heuristics import choose
from engine.games.four_card.rules import DECK, FourCardState
from engine.players.contract import Situation
from engine.players.search import heuristic_step
from engine.state import Layout
from tests.builds import build, plant, sources_of

GAME = find_variant("four_card")


def norm(action: Action) -> tuple[int, str, frozenset[int]]:
    return action.seat, action.kind.value, frozenset(action.cards)


def two_molodkas(rng: random.Random) -> Layout:
    """A first deal in which two players each hold four cards of one suit (F10's race between them)."""
    deck = list(DECK)
    rng.shuffle(deck)
    first, second = rng.sample(range(4), 2)
    suits = rng.sample(list(Suit), 2)
    hands, rest = four_of_a_suit(deck, [(first, suits[0]), (second, suits[1])])
    return Layout(tuple(tuple(h) for h in hands), tuple(rest), rng.randrange(4, 16))


def four_of_a_suit(cards: list[Card], holders: list[tuple[int, Suit]]) -> tuple[list[list[Card]], list[Card]]:
    """Four hands of four from ``cards`` (in their order) in which each holder's seat has four of his suit;
    the hands, and the cards left over."""
    hands: list[list[Card]] = [[], [], [], []]
    for seat, suit in holders:
        hands[seat] = [c for c in cards if c.suit is suit][:4]
    rest = [c for c in cards if not any(c in h for h in hands)]
    for seat in range(4):
        while len(hands[seat]) < 4:
            hands[seat].append(rest.pop())
    return hands, rest


def differences(deals: int, seed: int, lib: ModuleType | None = None, *, stacked: bool = False) -> list[str]:
    """Play ``deals`` random deals with the pure engine, every seat's legal actions open to the random choice
    (molodkas out of turn too); before and after every step, compare the core with it.  ``stacked``: each
    deal is the first of a game dealt by ``two_molodkas``.  The first difference found, if any."""
    variant = find_variant("four_card")
    rng = random.Random(seed)
    played = 0
    while played < deals:
        state = variant.new_game(rng.getrandbits(40), {}, stacked=[two_molodkas(rng)] if stacked else [])
        assert isinstance(state, FourCardState)
        while state.outcome is None and played < deals and not (stacked and state.deals):
            data = fc.encode(fc.position(state))
            actions = state.all_legal_actions()
            pure, compiled = {norm(a) for a in actions}, {norm(a) for a in fc.legal(data, lib)}
            if pure != compiled:
                return [f"legal actions in {fc.position(state)}: only pure {pure - compiled}, only core {compiled - pure}"]
            action = rng.choice(actions)
            before = len(state.deals)
            after, over = fc.step(data, action, lib)
            state.apply(action)
            if over != (len(state.deals) > before):
                return [f"after {action}: the deal is over by the core {over}, by the engine {not over}"]
            if not over:
                if fc.decode(after) != fc.position(state):
                    return [f"after {action}: the core has {fc.decode(after)}, the engine {fc.position(state)}"]
                continue
            played += 1
            result, got = state.deals[-1], fc.decode(after)
            if (got.points, got.tricks) != (result.points, result.tricks):
                return [f"deal score: the core {got.points} {got.tricks}, the engine {result.points} {result.tricks}"]
            if result.points[0] != result.points[1]:
                loser = 0 if result.points[0] < result.points[1] else 1
                if fc.defeat_points(got.points[loser], got.tricks[loser], lib) != result.score[loser]:
                    return [f"defeat points of {got.points[loser]} points, {got.tricks[loser]} tricks (F14)"]
    return []


def test_the_core_plays_four_card_kozel_as_the_pure_engine_does() -> None:
    """F6–F14: 400 random deals, about 12,000 positions, every one compared; and 200 deals that open with
    two molodkas in hand (F10)."""
    assert differences(400, 20261201) == []
    assert differences(200, 20261202, stacked=True) == []


def test_the_cores_random_deals_keep_the_card_points() -> None:
    """F3: every deal the core plays out by itself hands out the whole pack's 120 points."""
    actions, team0, team1 = fc.random_deals(2000, 7)
    assert team0 + team1 == 120 * 2000
    assert 25 * 2000 < actions < 35 * 2000  # about 30 actions a deal, as the pure engine plays


MUTANTS = {  # rule: (the core's file, what it says, a plausible mistake)
    "F6": ("rules.c", "|| (!same && SUIT(x) == trump)", "|| (!same && SUIT(y) == trump)"),
    "F8": ("rules.c", "if (popcount(sub) != size) continue;", "if (popcount(sub) > size) continue;"),
    "F9": ("rules.c", "int winner = s->plays[s->top].seat", "int winner = s->plays[0].seat"),
    "F10": ("rules.c", "return s->answered == 0 && distance < leader;", "return distance < leader;"),
    "F11": ("rules.c", "s->hand[(winner + i) % 4] |= 1ULL", "s->hand[(winner + 1 + i) % 4] |= 1ULL"),
    "F14": ("rules.c", "if (tricks == 0) return 6;", "if (tricks <= 1) return 6;"),
    "solver: F14": ("solve.c", "return points[0] - points[1] - 15 * (score[0] - score[1]);",
                    "return points[0] - points[1];"),
    "solver: the bounds": ("solve.c", "int left = 120 - s->points[0] - s->points[1];",
                           "int left = fc_card_points(s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3]);"),
}
@pytest.mark.parametrize("rule", sorted(MUTANTS))
def test_a_rule_bug_planted_in_the_core_fails_the_comparison(rule: str, tmp_path: Path) -> None:
    mutant = plant(GAME, *MUTANTS[rule], tmp_path)

    def seen() -> bool:
        solved = [fc.solve(fc.encode(fc.position(state)), mutant)[0] for state, _ in SOLVED()]
        if solved != [value for _, value in SOLVED()]:
            return True
        return bool(differences(200, 20261202, mutant, stacked=True) or differences(400, 20261201, mutant))

    assert seen(), f"a planted {rule} bug went unseen"


def test_a_build_of_the_cores_sources_as_they_are_passes_the_comparison(tmp_path: Path) -> None:
    """What the mutants are built by changes nothing by itself."""
    clean = build(GAME, sources_of(GAME), tmp_path)
    assert differences(100, 20261201, clean) == [] == differences(50, 20261202, clean, stacked=True)
    assert [fc.solve(fc.encode(fc.position(state)), clean)[0] for state, _ in SOLVED()] == [
        value for _, value in SOLVED()
    ]


# --- the solver -------------------------------------------------------------------------------------------


def reference_value(state: FourCardState, passed: frozenset[int] = frozenset(), memo: Memo | None = None) -> int:
    """Plain minimax over the pure engine (remembering the positions met), with the solver's model of who
    acts: a molodka out of turn first (nearest the original leader first; its holder may let the play go
    on), else the seat to move.  The worth to team 0 counts as ``deal_value`` does."""
    memo = {} if memo is None else memo
    key = (fc.encode(fc.position(state)), passed)
    if key in memo:
        return memo[key]
    legal = state.all_legal_actions()
    mover = state.to_move
    actor, options = mover, [a for a in legal if a.seat == mover]
    interrupting = False
    for seat in [(state.trick_leader + d) % 4 for d in range(4)]:
        mine = [a for a in legal if a.seat == seat]
        if seat != mover and seat not in passed and mine:
            actor, options, interrupting = seat, mine, True
            break
    assert actor is not None
    values = [reference_value(state, passed | {actor}, memo)] if interrupting else []
    for action in options:
        child = state.clone()
        before = len(child.deals)
        child.apply(action)
        ended = len(child.deals) > before
        assert isinstance(child, FourCardState)
        values.append(int(FourCardState.deal_value(child.deals[-1], 0)) if ended else reference_value(child, memo=memo))
    memo[key] = max(values) if actor % 2 == 0 else min(values)
    return memo[key]


Memo = dict[tuple[bytes, frozenset[int]], int]


def endgames(count: int, cards: int, seed: int) -> list[FourCardState]:
    """Positions of random deals with the stock drawn and at most ``cards`` cards in each hand."""
    variant, rng = find_variant("four_card"), random.Random(seed)
    found: list[FourCardState] = []
    while len(found) < count:
        state = variant.new_game(rng.getrandbits(40), {})
        assert isinstance(state, FourCardState)
        while state.stock or max(len(h) for h in state.hands) > cards:
            state.apply(rng.choice(state.all_legal_actions()))
        for _ in range(rng.randrange(4)):  # somewhere inside a trick too
            if not state.deals:
                state.apply(rng.choice(state.all_legal_actions()))
        if not state.deals:
            found.append(state)
    return found


def molodka_endgames(count: int, seed: int) -> list[FourCardState]:
    """Positions of the first trick after the stock ran out, the hands dealt again so that one or two seats
    other than the leader hold four cards of one suit, and the leader has led three cards: each holder may
    interrupt with his molodka (F10), before or after the others' answers."""
    variant, rng = find_variant("four_card"), random.Random(seed)
    found: list[FourCardState] = []
    while len(found) < count:
        state = variant.new_game(rng.getrandbits(40), {})
        assert isinstance(state, FourCardState)
        while state.stock or state.trick:
            state.apply(rng.choice(state.all_legal_actions()))
        leader = state.to_move
        if state.deals or leader is None or len(state.hands[0]) != 4:
            continue
        cards = [c for h in state.hands for c in h]
        rng.shuffle(cards)
        suits = [suit for suit in Suit if sum(c.suit is suit for c in cards) >= 4]
        holders = rng.sample([seat for seat in range(4) if seat != leader], min(len(suits), rng.choice((1, 2))))
        hands, _ = four_of_a_suit(cards, list(zip(holders, suits, strict=False)))
        state.hands = [sorted(h) for h in hands]
        state._cache.clear()
        leads = [a for a in state.legal_actions(leader) if a.kind is Kind.LEAD and len(a.cards) == 3]
        if leads:
            state.apply(rng.choice(leads))
            for _ in range(rng.randrange(3)):
                state.apply(rng.choice([a for a in state.all_legal_actions() if a.kind is not Kind.MOLODKA]))
            found.append(state)
    return found


def test_the_solver_finds_the_exact_worth_of_a_position_with_every_card_known() -> None:
    """The core's alpha-beta solver against plain minimax over the pure engine: 120 end positions of one or
    two cards a hand, inside tricks too, and 40 in which molodkas may interrupt (F10)."""
    check_solver(endgames(120, 2, 11) + molodka_endgames(40, 13))


@pytest.mark.reference
def test_the_solver_in_positions_of_three_cards_a_hand() -> None:
    """The same in 40 positions of three cards a hand (a minute and a half of plain minimax)."""
    check_solver(endgames(40, 3, 12))


@functools.cache
def SOLVED() -> list[tuple[FourCardState, int]]:
    """End positions for the mutants of the solver, with their worth by plain minimax."""
    return [(state, reference_value(state)) for state in endgames(40, 2, 21) + molodka_endgames(20, 22)]


def check_solver(states: list[FourCardState]) -> None:
    for state in states:
        value, nodes = fc.solve(fc.encode(fc.position(state)))
        assert value == reference_value(state), state.situation()
        assert nodes > 0


# --- the heuristics in the core: the expert's playouts ------------------------------------------------------


def heuristic_differences(deals: int, seed: int, lib: ModuleType | None = None) -> list[str]:
    """Deals played by the heuristics: in every position the core's action for the seat to move against
    heuristics.py's, and the core's playout of the rest against the pure engine's."""
    variant, rng = find_variant("four_card"), random.Random(seed)
    for number in range(deals):
        state = variant.new_game(rng.getrandbits(40))
        assert isinstance(state, FourCardState)
        while not state.deals:
            mover = state.to_move
            assert mover is not None
            chosen = choose(Situation.of_state(state, mover), True)
            assert chosen is not None
            data = fc.encode(fc.position(state))
            core = fc.heuristic(data, lib)
            if (core.seat, core.kind, sorted(core.cards)) != (chosen.seat, chosen.kind, sorted(chosen.cards)):
                return [f"in {fc.position(state)} the core takes {core}, heuristics.py {chosen}"]
            if number % 10 == 0:
                rest = state.fork()
                while not rest.deals:
                    heuristic_step(rest)
                value = FourCardState.deal_value(rest.deals[0], 0)
                if fc.playout(data, lib) != value:
                    return [f"from {fc.position(state)} the core's playout is worth {fc.playout(data, lib)}, {value}"]
            heuristic_step(state)
    return []


def test_the_core_plays_the_heuristics_as_heuristics_py_does() -> None:
    """The expert's playouts while the stock lasts: the same action as the pure heuristics in every position of
    200 deals (molodkas included), and the same worth of the deal's rest."""
    assert heuristic_differences(200, 91) == []


HEURISTIC_MUTANTS = {  # (the core's file, what it says, a plausible mistake)
    "the lead": ("heuristics.c", "((__builtin_ctzll(cards) >> 4) != trump ? 5 : 0)", "5"),
    "a card's cost": ("heuristics.c", "((c >> 4) == trump ? 12 : 0)", "((c >> 4) == trump ? 6 : 0)"),
    "the partner's trick": ("heuristics.c", "return last ? richest : discard;", "return discard;"),
    "a beat worth the trump": ("heuristics.c", ">= 10 || !uses_trump || last", ">= 10 || last"),
    "the tie": ("heuristics.c", "return a3 == b3 ? 0 : a3 < b3 ? -1 : 1;", "return 0;"),
}


@pytest.mark.parametrize("mistake", sorted(HEURISTIC_MUTANTS))
def test_a_bug_planted_in_the_core_s_heuristics_is_seen(mistake: str, tmp_path: Path) -> None:
    mutant = plant(find_variant("four_card"), *HEURISTIC_MUTANTS[mistake], tmp_path)
    assert heuristic_differences(60, 92, mutant)
