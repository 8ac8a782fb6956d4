"""The compiled core's Czech Kozel against the pure engine (issue 32): the same legal cards in every position
of card play, the same position after every card and the same deal scores, over random series of 3 to 6
players, doubles (K6) made by the pure engine; a rule bug planted in the core's source fails that comparison;
the solver, for one seat against the others together, matches plain minimax; and the expert's valuation, the
best response to the others' heuristics, matches the same written over the pure engine."""

from __future__ import annotations

import functools
import random
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from engine import find_variant
from engine.actions import Kind
from engine.cards import Card
from engine.games.czech import compiled as cz
from engine.games.czech.heuristics import choose
from engine.games.czech.rules import KOZEL, CzechState
from engine.players.contract import Situation
from engine.players.search import heuristic_step
from tests.builds import plant

PLAYERS = (3, 4, 5, 6)


def differences(deals: int, seed: int, lib: ModuleType | None = None, seen: Counter[str] | None = None) -> list[str]:
    """Play random series deal after deal, 3 to 6 players in turn, every seat's legal actions open to the
    random choice (the double too); in every position of card play compare the core's legal cards and the
    position or the deal's result after the card.  ``seen`` counts the rules' events met."""
    variant = find_variant("czech")
    rng = random.Random(seed)
    seen = Counter() if seen is None else seen
    played = 0
    while played < deals:
        state = variant.new_game(rng.getrandbits(40), {"players": PLAYERS[played % len(PLAYERS)]})
        assert isinstance(state, CzechState)
        while state.outcome is None and played < deals:
            actions = state.all_legal_actions()
            action = rng.choice(actions)
            data = cz.encode(cz.position(state))
            pure = sorted(a.cards[0] for a in actions if a.kind is Kind.PLAY)
            compiled = sorted(cz.legal(data, lib))
            if pure != compiled:
                return [f"legal cards in {cz.position(state)}: pure {pure}, core {compiled}"]
            if action.kind is not Kind.PLAY:
                state.apply(action)
                continue
            before = len(state.deals)
            after, over = cz.step(data, action.cards[0], lib)
            state.apply(action)
            if over != (len(state.deals) > before):
                return [f"after {action}: the deal is over by the core {over}, by the engine {not over}"]
            if not over:
                if cz.decode(after) != cz.position(state):
                    return [f"after {action}: the core has {cz.decode(after)}, the engine {cz.position(state)}"]
                continue
            played += 1
            result, got = state.deals[-1], cz.decode(after)
            seen.update(result.events)
            seen["kozel taken"] += any(p >= 13 for p in result.points)
            if (got.penalties, got.tricks, got.score) != (result.points, result.tricks, result.score):
                return [f"deal score: the core {got}, the engine {result}"]
    return []


def test_the_core_plays_czech_kozel_as_the_pure_engine_does() -> None:
    """K4–K7: 600 random deals of 3 to 6 players, every position compared; doubles (K6) and every trick to
    one player (K7) come up."""
    seen: Counter[str] = Counter()
    assert differences(600, 20261204, seen=seen) == []
    assert seen["double"] > 50 and seen["all_tricks"] > 0 and seen["kozel taken"] > 300


def test_the_cores_random_czech_deals_hand_out_the_penalty_points() -> None:
    """K5, K7: a deal of four the core plays out by itself hands out the 8 hearts and the kozel's 13 (no talon,
    K3), or 21 to each of three when one player takes every trick: 42 more."""
    cards, total = cz.random_deals(1000, 4, 7)
    assert cards == 1000 * 32
    assert 21 * 1000 <= total < 21 * 1100 and (total - 21 * 1000) % 42 == 0
    for players in (3, 5, 6):  # two cards in the talon, out of play, hold a heart or the kozel now and then
        cards, total = cz.random_deals(1000, players, 7)
        assert cards == 1000 * players * {3: 10, 5: 6, 6: 5}[players]
        assert 18 * 1000 < total < 22 * 1000  # a player takes every trick now and then (K7)


MUTANTS = {  # rule: (the core's file, what it says, a plausible mistake)
    "K4 follow": ("rules.c", "uint64_t follow = hand & SUIT_MASK(s->play_card[0] >> 4);",
                  "uint64_t follow = hand & SUIT_MASK(s->play_card[s->nplays - 1] >> 4);"),
    "K4 winner": ("rules.c", "if (c >> 4 == led && c > best)", "if (c > best)"),
    "K5": ("rules.c", "((cards >> KOZEL & 1) ? 13 : 0)", "((cards >> KOZEL & 1) ? 12 : 0)"),
    "K6": ("rules.c", "int factor = s->doubled ? 2 : 1", "int factor = 1"),
    "K7": ("rules.c", "(i == taker ? 0 : 21 * factor)", "(i == taker ? 0 : 20 * factor)"),
    "solver: equivalent cards": ("solve.c", " && cz_penalty(1ULL << d) == cz_penalty(1ULL << card)", ""),
    "solver: the penalties in the key": ("solve.c", "h = mix(mix(h, s->hand[i]), (uint64_t)s->penalty[i]);",
                                         "h = mix(h, s->hand[i]);"),
    "solver: paranoid": ("solve.c", "int maximize = s->to_move == seat", "int maximize = s->to_move % 2 == seat % 2"),
}


@pytest.mark.parametrize("rule", sorted(MUTANTS))
def test_a_rule_bug_planted_in_the_czech_core_fails_the_comparison(rule: str, tmp_path: Path) -> None:
    mutant = plant(find_variant("czech"), *MUTANTS[rule], tmp_path)

    def seen() -> bool:
        solved = [cz.solve(cz.encode(cz.position(state)), seat, mutant)[0] for state, seat, _ in SOLVED()]
        if solved != [value for _, _, value in SOLVED()]:
            return True
        return bool(differences(600, 20261204, mutant))

    assert seen(), f"a planted {rule} bug went unseen"


# --- the solver -------------------------------------------------------------------------------------------


def reference_value(state: CzechState, seat: int, memo: dict[bytes, int] | None = None) -> int:
    """Plain minimax over the pure engine's cards (remembering the positions met), ``seat`` against the
    others together: his ``deal_value`` times the players less one."""
    memo = {} if memo is None else memo
    key = cz.encode(cz.position(state))
    if key not in memo:
        assert state.to_move is not None
        values = []
        for action in state.legal_actions(state.to_move):
            if action.kind is not Kind.PLAY:
                continue
            child = state.fork()
            before = len(child.deals)
            child.apply(action)
            if len(child.deals) > before:
                values.append(round(CzechState.deal_value(child.deals[-1], seat) * (state.num_players - 1)))
            else:
                values.append(reference_value(child, seat, memo))
        memo[key] = max(values) if state.to_move == seat else min(values)
    return memo[key]


def endgames(count: int, cards: int, seed: int, kozel: bool = False) -> list[tuple[CzechState, int]]:
    """Positions of random deals of 3 to 6 players (doubled now and then) with at most ``cards`` cards left
    in all the hands, somewhere inside a trick too, each with a seat to value it for."""
    variant, rng = find_variant("czech"), random.Random(seed)
    found: list[tuple[CzechState, int]] = []
    while len(found) < count:
        state = variant.new_game(rng.getrandbits(40), {"players": PLAYERS[len(found) % len(PLAYERS)]})
        assert isinstance(state, CzechState)
        while not state.deals and sum(map(len, state.hands)) > cards:
            state.apply(rng.choice(state.all_legal_actions()))
        for _ in range(rng.randrange(state.num_players)):
            if not state.deals:
                state.apply(rng.choice(state.all_legal_actions()))
        if not state.deals and (not kozel or any(kozel_beside_another_spade(h, state) for h in state.hands)):
            found.append((state, rng.randrange(state.num_players)))
    return found


def test_the_czech_solver_finds_the_exact_worth_of_a_position_with_every_card_known() -> None:
    """The core's paranoid alpha-beta (with its equivalent cards and move ordering) against plain minimax over
    the pure engine: 150 end positions of up to 12 cards in all, 3 to 6 players."""
    for state, seat in endgames(150, 12, 51):
        value, nodes = cz.solve(cz.encode(cz.position(state)), seat)
        assert value == reference_value(state, seat), state.situation()
        assert nodes > 0


def kozel_beside_another_spade(hand: list[Card], state: CzechState) -> bool:
    """The hand holds the kozel and the next live spade below it or above it."""
    if KOZEL not in hand:
        return False
    live = sorted(c for h in state.hands for c in h if c.suit is KOZEL.suit)
    i = live.index(KOZEL)
    return any(0 <= j < len(live) and live[j] in hand for j in (i - 1, i + 1))


@functools.cache
def SOLVED() -> list[tuple[CzechState, int, int]]:
    """End positions for the mutants of the solver, with their worth by plain minimax."""
    found = endgames(60, 12, 61) + endgames(30, 12, 62, kozel=True)
    return [(state, seat, reference_value(state, seat)) for state, seat in found]


# --- the heuristics and the best response to them ------------------------------------------------------------


def heuristic_differences(series: int, seed: int, lib: ModuleType | None = None) -> list[str]:
    """Series of 3 to 6 players played by the heuristics, doubles included: in every position of card play the
    core's heuristic card against heuristics.py's."""
    variant, rng = find_variant("czech"), random.Random(seed)
    for number in range(series):
        state = variant.new_game(rng.getrandbits(40), {"players": PLAYERS[number % len(PLAYERS)]})
        assert isinstance(state, CzechState)
        while state.outcome is None:
            mover = state.to_move
            assert mover is not None
            chosen = choose(Situation.of_state(state, mover), True)
            assert chosen is not None
            if chosen.kind is Kind.PLAY:
                core = cz.heuristic(cz.encode(cz.position(state)), lib)
                if core != chosen.cards[0]:
                    return [f"in {cz.position(state)} the core plays {Card.from_code(core)}, heuristics.py {chosen}"]
            heuristic_step(state)
    return []


def test_the_core_plays_the_heuristics_as_heuristics_py_does() -> None:
    """The best response's model of the others: the same card as the pure heuristics in every position of 60
    series (every deal of each), 3 to 6 players."""
    assert heuristic_differences(60, 71) == []


def reference_response(state: CzechState, seat: int, memo: dict[bytes, int] | None = None) -> int:
    """The best response over the pure engine (remembering the positions met): ``seat`` plays each of its
    cards, the others play heuristics.py's; its ``deal_value`` times the players less one."""
    memo = {} if memo is None else memo
    key = cz.encode(cz.position(state))
    if key not in memo:
        mover = state.to_move
        assert mover is not None
        if mover == seat:
            moves = [a for a in state.legal_actions(mover) if a.kind is Kind.PLAY]
        else:
            chosen = choose(Situation.of_state(state, mover), True)
            assert chosen is not None
            moves = [chosen]
        values = []
        for action in moves:
            child = state.fork()
            before = len(child.deals)
            child.apply(action)
            if len(child.deals) > before:
                values.append(round(CzechState.deal_value(child.deals[-1], seat) * (state.num_players - 1)))
            else:
                values.append(reference_response(child, seat, memo))
        memo[key] = max(values)
    return memo[key]


@functools.cache
def RESPONDED() -> list[tuple[CzechState, int, int]]:
    """Positions of up to 16 cards in all, with the best response's worth over the pure engine."""
    return [(state, seat, reference_response(state, seat)) for state, seat in endgames(120, 16, 81)]


def test_the_best_response_is_the_best_of_the_seat_s_cards_against_the_heuristics() -> None:
    """The expert's valuation of a world against the best response written over the pure engine: 120 positions
    of up to 16 cards, 3 to 6 players, from any seat (its turn or not)."""
    for state, seat, value in RESPONDED():
        found, nodes = cz.best_response(cz.encode(cz.position(state)), seat)
        assert found == value, state.situation()
        assert nodes >= 0


RESPONSE_MUTANTS = {  # what the best response relies on: (the core's file, what it says, a plausible mistake)
    "the heuristic's lead": ("heuristics.c", "(c >> 4 == HEARTS) << 4", "(c >> 4 == SPADES) << 4"),
    "the heuristic's discard": ("heuristics.c", "cz_penalty(1ULL << card) * 20 +", "cz_penalty(1ULL << card) +"),
    "the heuristic's last card": ("heuristics.c", "int k = (c != KOZEL) << 8 | c;", "int k = c;"),
    "the response's own cards": ("respond.c", "for (int i = 0; i < n; i++) {", "for (int i = 0; i < 1; i++) {"),
    "the response's table": ("respond.c", "h = mix(mix(h, s->hand[i]), (uint64_t)s->penalty[i]);",
                             "h = mix(h, s->hand[i]);"),
}


@pytest.mark.parametrize("mistake", sorted(RESPONSE_MUTANTS))
def test_a_bug_planted_in_the_heuristics_or_the_response_is_seen(mistake: str, tmp_path: Path) -> None:
    mutant = plant(find_variant("czech"), *RESPONSE_MUTANTS[mistake], tmp_path)
    found = [cz.best_response(cz.encode(cz.position(state)), seat, mutant)[0] for state, seat, _ in RESPONDED()]
    assert found != [value for _, _, value in RESPONDED()] or heuristic_differences(20, 72, mutant)
