"""The compiled core's classic Kozel against the pure engine (issue 32): the same legal cards in every position
of card play, the same position after every card and the same deal scores, over random series with every
option set (C2 deck, C6 redeal, C13 all tricks), the announcements (C6, C7) made by the pure engine; a rule
bug planted in the core's source fails that comparison; and the solver matches plain minimax."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from engine import find_variant
from engine.actions import Kind
from engine.games.classic import compiled as cc
from engine.games.classic.heuristics import choose
from engine.games.classic.rules import QUEEN_OF_CLUBS, SIX_OF_CLUBS, ClassicState
from engine.players.contract import Situation
from engine.players.search import heuristic_step
from tests.builds import plant

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"deck": 32},
    {"all_tricks": "lose_series"},
    {"redeal": False, "deck": 32, "all_tricks": "lose_series"},
]


def differences(deals: int, seed: int, lib: ModuleType | None = None, seen: Counter[str] | None = None) -> list[str]:
    """Play random series deal after deal, every option set in turn, every seat's legal actions open to the
    random choice (the announcements too); in every position of card play compare the core's legal cards and
    the position or the deal's result after the card.  Some deals start with eggs pending (C13) so that
    their bonus is in play.  ``seen`` counts the rules' events met.  The first difference found, if any."""
    variant = find_variant("classic")
    rng = random.Random(seed)
    seen = Counter() if seen is None else seen
    played = 0
    while played < deals:
        options = OPTION_SETS[played % len(OPTION_SETS)]
        state = variant.new_game(rng.getrandbits(40), options)
        assert isinstance(state, ClassicState)
        while state.outcome is None and played < deals:
            if state.before_first_lead and not state.trick and rng.random() < 0.3:
                state.eggs_pending = rng.randrange(1, 3)
            actions = state.all_legal_actions()
            action = rng.choice(actions)
            if not cc.in_card_play(state):
                state.apply(action)
                continue
            data = cc.encode(cc.position(state))
            pure = sorted(a.cards[0] for a in actions if a.kind is Kind.PLAY)
            compiled = sorted(cc.legal(data, lib))
            if pure != compiled:
                return [f"legal cards in {cc.position(state)}: pure {pure}, core {compiled}"]
            if action.kind is not Kind.PLAY:
                state.apply(action)
                continue
            before = len(state.deals)
            after, over = cc.step(data, action.cards[0], lib)
            state.apply(action)
            if over != (len(state.deals) > before):
                return [f"after {action}: the deal is over by the core {over}, by the engine {not over}"]
            if not over:
                if cc.decode(after) != cc.position(state):
                    return [f"after {action}: the core has {cc.decode(after)}, the engine {cc.position(state)}"]
                continue
            played += 1
            result, got = state.deals[-1], cc.decode(after)
            seen.update(result.events)
            if (got.points, got.tricks, got.score) != (result.points, result.tricks, result.score):
                return [f"deal score: the core {got}, the engine {result}"]
    return []


def test_the_core_plays_classic_kozel_as_the_pure_engine_does() -> None:
    """C8–C13: 600 random deals, about 20,000 positions, every one compared; the catch of the Q♣ (C12), eggs
    and their bonus, and every trick to one team (C13) all come up."""
    seen: Counter[str] = Counter()
    assert differences(600, 20261203, seen=seen) == []
    assert seen["queen_caught"] > 20 and seen["eggs"] > 0 and seen["all_tricks"] > 0 and seen["reset"] > 0
    assert any(event.startswith("egg_bonus") for event in seen)


def test_the_cores_random_classic_deals_keep_the_card_points() -> None:
    """C5: a deal the core plays out by itself hands out 120 points, or none when the Q♣ is caught (C12)."""
    cards, team0, team1 = cc.random_deals(2000, 7)
    assert (team0 + team1) % 120 == 0 and 120 * 1000 < team0 + team1 < 120 * 2000
    assert 2000 * 4 < cards <= 2000 * 36


MUTANTS = {  # rule: (the core's file, what it says, a plausible mistake)
    "C3": ("rules.c", "{HEARTS, 12}, {SPADES, 12}, {CLUBS, 12}", "{SPADES, 12}, {HEARTS, 12}, {CLUBS, 12}"),
    "C8": ("rules.c", "allowed = hand & 1ULL << ACE_OF_DIAMONDS;", "allowed = hand;"),
    "C9": ("rules.c", "if (plain) allowed = plain;", "(void)plain;"),
    "C10": ("rules.c", "uint64_t follow = of_suit(hand, esuit[s->play_card[0]]);",
            "uint64_t follow = hand & 0xFFFFULL << (s->play_card[0] & 48);"),
    "C11": ("rules.c", "(esuit[c] == led || esuit[c] == TRUMPS) && power[c] > best",
            "esuit[c] == led && power[c] > best"),
    "C12": ("rules.c", "queen % 2 != six % 2", "queen != six"),
    "C13 pairs": ("rules.c", "p >= 91 ? 4 : p >= 61 ? 2 : 0", "p >= 91 ? 4 : p >= 60 ? 2 : 0"),
    "C13 eggs": ("rules.c", "+= 2 * eggs_pending", "+= eggs_pending"),
    "C13 all tricks": ("rules.c", "int taker = s->tricks[0] ? 0 : 1;", "int taker = s->tricks[1] ? 0 : 1;"),
    "solver: equivalent cards": ("solve.c", "&& points[d] == points[card] &&", "&&"),
    "solver: the bound of a caught queen": ("solve.c", "widen(range, -15 * (4 + 2 * s->eggs_pending));", ""),
    "solver: the bound of every trick to one team": ("solve.c", "if (s->lose_series && !s->tricks[0])",
                                                      "if (0)"),
}


@pytest.mark.parametrize("rule", sorted(MUTANTS))
def test_a_rule_bug_planted_in_the_classic_core_fails_the_comparison(rule: str, tmp_path: Path) -> None:
    mutant = plant(find_variant("classic"), *MUTANTS[rule], tmp_path)

    def seen() -> bool:
        if [cc.solve(cc.encode(cc.position(state)), mutant)[0] for state, _ in SOLVED()] != [v for _, v in SOLVED()]:
            return True
        return bool(differences(600, 20261203, mutant))

    assert seen(), f"a planted {rule} bug went unseen"


# --- the solver -------------------------------------------------------------------------------------------


def reference_value(state: ClassicState, memo: dict[bytes, int] | None = None) -> int:
    """Plain minimax over the pure engine's cards (remembering the positions met): the worth to team 0 as
    ``deal_value`` counts it."""
    memo = {} if memo is None else memo
    key = cc.encode(cc.position(state))
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
                values.append(int(ClassicState.deal_value(child.deals[-1], 0)))
            else:
                values.append(reference_value(child, memo))
        memo[key] = max(values) if state.to_move % 2 == 0 else min(values)
    return memo[key]


def endgames(
    count: int, cards: int, seed: int, keep: Callable[[ClassicState], bool] = lambda state: True
) -> list[ClassicState]:
    """Positions of random deals (every option set, eggs pending now and then) with at most ``cards`` cards
    in a hand, somewhere inside a trick too; only those ``keep`` accepts."""
    variant, rng = find_variant("classic"), random.Random(seed)
    found: list[ClassicState] = []
    for tried in itertools.count():
        if len(found) == count:
            break
        state = variant.new_game(rng.getrandbits(40), OPTION_SETS[tried % len(OPTION_SETS)])
        assert isinstance(state, ClassicState)
        state.eggs_pending = rng.choice((0, 0, 1, 2))
        while not state.deals and (max(len(h) for h in state.hands) > cards or not cc.in_card_play(state)):
            state.apply(rng.choice(state.all_legal_actions()))
        for _ in range(rng.randrange(4)):
            if not state.deals:
                state.apply(rng.choice([a for a in state.all_legal_actions() if a.kind is Kind.PLAY]))
        if not state.deals and keep(state):
            found.append(state)
    return found


def test_the_classic_solver_finds_the_exact_worth_of_a_position_with_every_card_known() -> None:
    """The core's alpha-beta solver (with its equivalent cards and its move ordering) against plain minimax
    over the pure engine: 150 end positions of up to three cards a hand."""
    for state in endgames(150, 3, 31):
        value, nodes = cc.solve(cc.encode(cc.position(state)))
        assert value == reference_value(state), state.situation()
        assert nodes > 0


@functools.cache
def SOLVED() -> list[tuple[ClassicState, int]]:
    """End positions for the mutants of the solver, with their worth by plain minimax."""
    found = endgames(60, 3, 41) + endgames(40, 3, 42, both_clubs_out) + endgames(20, 3, 43, a_team_without_a_trick)
    return [(state, reference_value(state)) for state in found]


def both_clubs_out(state: ClassicState) -> bool:
    """The Q♣ and the 6♣ in the hands of the two teams: the queen can still be caught (C12)."""
    holder = {c: seat % 2 for seat, hand in enumerate(state.hands) for c in hand}
    return {QUEEN_OF_CLUBS, SIX_OF_CLUBS} <= set(holder) and holder[QUEEN_OF_CLUBS] != holder[SIX_OF_CLUBS]


def a_team_without_a_trick(state: ClassicState) -> bool:
    """Every trick so far to one team, under the option by which taking every trick wins the series (C13)."""
    return state.options.all_tricks == "lose_series" and 0 in state.tricks_taken


# --- the heuristics in the core: the expert's continuation until a solve is affordable -----------------------


def heuristic_differences(deals: int, seed: int, lib: ModuleType | None = None) -> list[str]:
    """Deals played by the heuristics, every option set in turn: in every position of card play the core's
    card for the seat to move against heuristics.py's, and in some the core's solve after its heuristics
    played on to a few cards against the solve of the pure engine's own continuation."""
    variant, rng = find_variant("classic"), random.Random(seed)
    for number in range(deals):
        state = variant.new_game(rng.getrandbits(40), OPTION_SETS[number % len(OPTION_SETS)])
        assert isinstance(state, ClassicState)
        while not state.deals:
            mover = state.to_move
            assert mover is not None
            if not cc.in_card_play(state):
                heuristic_step(state)
                continue
            chosen = choose(Situation.of_state(state, mover), True)
            assert chosen is not None and chosen.kind is Kind.PLAY
            data = cc.encode(cc.position(state))
            core = cc.heuristic(data, lib)
            if core != chosen.cards[0]:
                return [f"in {cc.position(state)} the core plays {core}, heuristics.py {chosen}"]
            if number % 5 == 0:
                cards = rng.randrange(0, 12)
                rest = state.fork()
                while not rest.deals and sum(map(len, rest.hands)) > cards:
                    heuristic_step(rest)
                assert isinstance(rest, ClassicState)
                if rest.deals:
                    expected = ClassicState.deal_value(rest.deals[0], 0)
                else:
                    expected = cc.solve(cc.encode(cc.position(rest)))[0]
                got = cc.solve(data, lib, cards=cards)[0]
                if got != expected:
                    return [f"from {cc.position(state)} solved at {cards} cards: the core {got}, {expected}"]
            heuristic_step(state)
    return []


def test_the_core_plays_the_heuristics_as_heuristics_py_does() -> None:
    """The expert's continuation: the same card as the pure heuristics in every position of card play of 200
    deals, every option set among them, and the same solve once they have played on to a few cards."""
    assert heuristic_differences(200, 93) == []


HEURISTIC_MUTANTS = {  # (the core's file, what it says, a plausible mistake)
    "drawing trumps": ("heuristics.c", "if (trumps >= 4 && trump_plays)", "if (trumps >= 3 && trump_plays)"),
    "the shortest suit": ("heuristics.c", "length[i.esuit] * 1000L + i.power", "i.power"),
    "catching the queen (C12)": ("heuristics.c", "queen_by % 2 != seat % 2", "queen_by != seat"),
    "the partner's trick": ("heuristics.c", "(top & 15) == ACE;", "0;"),
    "the last play": ("heuristics.c", "last ? i.points * 10L - i.power : i.power", "i.power"),
    "the first of a tie": ("heuristics.c", "if (sign * key[i] < sign * key[best])", "if (sign * key[i] <= sign * key[best])"),
    "where the solve starts": ("heuristics.c", "if (left <= cards) return 0;", "if (left < cards) return 0;"),
}


@pytest.mark.parametrize("mistake", sorted(HEURISTIC_MUTANTS))
def test_a_bug_planted_in_the_core_s_heuristics_is_seen(mistake: str, tmp_path: Path) -> None:
    mutant = plant(find_variant("classic"), *HEURISTIC_MUTANTS[mistake], tmp_path)
    assert heuristic_differences(60, 94, mutant)
