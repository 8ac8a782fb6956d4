"""Computer players (engine.players): they see only their seat's view (X1), always act legally, sample
worlds that agree with what they saw, stop on their budget, and play by the rules they cite."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from itertools import count

import pytest

from engine import Card, GameState, View, find_variant
from engine.players import (
    BasicPlayer,
    ExpertPlayer,
    RandomPlayer,
    SearchPlayer,
    Strong1Player,
    StrongPlayer,
    find_player,
)
from engine.players.contract import Situation, heuristic, tuning
from engine.players.flat import WARMUP, FlatSearch
from engine.players.search import likelihood
from engine.players.worlds import GREEDY_ATTEMPTS, Knowledge
from engine.registry import samples
from tests.helpers import GAME_CONFIGS, deck_of, table_cards

SAME_FIELDS = [
    *("seat", "hand", "hand_sizes", "legal", "trick", "trick_top", "tricks", "tricks_taken", "totals", "to_move"),
    *("leader", "trump", "trump_card", "trump_card_holder", "stock_size", "talon_size", "doubled"),
    *("trump_lead_banned", "stock_trump_index", "trump_card_place", "eggs_pending", "deals"),
]


def choosing(variant: str, options: dict[str, object], seed: int) -> tuple[GameState, View]:
    """A game played at random to where its seat to move has more than two choices, and that seat's view."""
    state, rng = find_variant(variant).new_game(seed, options), random.Random(seed)
    while state.to_move is None or len(state.legal_actions(state.to_move)) <= 2:
        state.apply(rng.choice(state.all_legal_actions()))
    return state, state.view(state.to_move)


def positions(variant: str, options: dict[str, object], seeds: range, stops: int = 6) -> list[GameState]:
    """Positions of random play: several moments of the first two deals of each seed."""
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = find_variant(variant).new_game(seed, options)
        marks = sorted(rng.sample(range(1, 60), stops))
        moves = 0
        while state.outcome is None and len(state.deals) < 2 and marks:
            state.apply(rng.choice(state.all_legal_actions()))
            moves += 1
            if moves == marks[0]:
                marks.pop(0)
                found.append(state.fork())
    return found


@pytest.mark.parametrize("attempts", [GREEDY_ATTEMPTS, 0], ids=["greedy", "matching"])
@pytest.mark.parametrize(("variant", "options"), GAME_CONFIGS)
def test_sampled_worlds_agree_with_the_view(variant: str, options: dict[str, object], attempts: int) -> None:
    """Every sampled world looks exactly like the real deal from the seat, holds the whole deck, keeps the
    voids a player showed (C10, K4), and plays on to the end of the deal; placed greedily or, where that
    keeps failing, by the matching."""
    rng = random.Random(5)
    checked = 0
    for state in positions(variant, options, range(12)):
        for seat in range(state.num_players):
            view = state.view(seat)
            knowledge = Knowledge(view)
            for _ in range(3):
                world = knowledge.world(rng, attempts)
                seen = world.view(seat)
                for name in SAME_FIELDS:
                    assert getattr(seen, name) == getattr(view, name), name
                assert Counter(table_cards(world)) == Counter(deck_of(state))
                suit = type(state).follow_suit
                for other, voids in enumerate(knowledge.voids):
                    assert not any(suit(c) in voids for c in world.hands[other]) or other == seat
                    assert not any(suit(c) in voids for c in state.hands[other])  # true of the real deal too
                deals = len(world.deals)
                while len(world.deals) == deals:
                    world.apply(world.all_legal_actions()[0])
                checked += 1
    assert checked > 100


def hidden_twin(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same deal with two cards the seat cannot see swapped between two other hands (or, in four-card
    Kozel, a hand and the stock away from the shown trump)."""
    twin = state.fork()
    others = [s for s in range(state.num_players) if s != seat and twin.hands[s]]
    shown = {getattr(state, "trump_card", None)}
    stock: list[Card] | None = getattr(twin, "stock", None)
    if stock and others:
        holder = rng.choice(others)
        i = rng.randrange(len(twin.hands[holder]))
        j = rng.randrange(len(stock))
        if twin.hands[holder][i] in shown or stock[j] in shown:
            return None
        twin.hands[holder][i], stock[j] = stock[j], twin.hands[holder][i]
        twin.hands[holder].sort()
    elif len(others) >= 2:
        a, b = rng.sample(others, 2)
        i, j = rng.randrange(len(twin.hands[a])), rng.randrange(len(twin.hands[b]))
        twin.hands[a][i], twin.hands[b][j] = twin.hands[b][j], twin.hands[a][i]
        twin.hands[a].sort()
        twin.hands[b].sort()
    else:
        return None
    twin._cache.clear()
    if twin.hands == state.hands and getattr(twin, "stock", None) == getattr(state, "stock", None):
        return None
    return twin


@pytest.mark.parametrize(("variant", "options"), GAME_CONFIGS)
def test_no_peeking(variant: str, options: dict[str, object]) -> None:
    """X1: two deals that differ only in cards the seat cannot see give every level the same decision for
    the same random seed."""
    rng = random.Random(11)
    compared = 0
    for state in positions(variant, options, range(8), stops=3):
        seat = state.to_move
        if seat is None or len(state.legal_actions(seat)) < 2:
            continue
        twin = hidden_twin(state, seat, rng)
        if twin is None:
            continue
        assert twin.view(seat) == state.view(seat)
        players = (
            RandomPlayer(),
            BasicPlayer(),
            Strong1Player(budget=None, max_worlds=6),
            SearchPlayer(None, 24),
            FlatSearch(budget=None, worlds=10),
            ExpertPlayer(budget=None, worlds=4),
        )
        for player in players:
            first = player.choose(state.view(seat), random.Random(3))
            second = player.choose(twin.view(seat), random.Random(3))
            assert first == second, player.name
        compared += 1
    assert compared >= 5


@pytest.mark.parametrize(("variant", "options"), GAME_CONFIGS)
def test_every_level_plays_a_series_legally(variant: str, options: dict[str, object]) -> None:
    """Mixed tables play two deals: each choice is one of the seat's legal actions, and a player waits
    (None) only when it is not his turn."""
    state = find_variant(variant).new_game(2, options)
    levels = ["strong", "basic", "random", "strong1"]
    players = [find_player(levels[s % 4], budget=None, max_worlds=3) for s in range(state.num_players)]
    rng = random.Random(2)
    while state.outcome is None and len(state.deals) < 2:
        acted = False
        for seat in [s for s in range(state.num_players) if s != state.to_move] + [state.to_move]:
            assert seat is not None
            view = state.view(seat)
            if not view.legal:
                continue
            choice = players[seat].choose(view, rng)
            if choice is None:
                assert seat != state.to_move
                continue
            assert choice in view.legal
            state.apply(choice)
            acted = True
            break
        assert acted


def test_search_stops_on_its_budget() -> None:
    """The search stops when the next sampled world would end after the budget (a counted clock, so the
    test does not depend on the machine's speed): a world costs one tick, the budget is 10 ticks."""
    ticks = count()
    player = Strong1Player(budget=10.0, clock=lambda: float(next(ticks)))
    state = find_variant("czech").new_game(4, {"players": 4})
    seat = state.to_move
    assert seat is not None
    player.choose(state.view(seat), random.Random(1))
    # tick 0 at the start, tick k after world k: ten worlds fit in the budget, an eleventh would not
    assert next(ticks) == 11


def test_tree_search_stops_on_its_budget() -> None:
    """The strong level's tree search keeps a margin: a walk costs one tick, the budget is 10 ticks of which
    the walks may use 9, with one walk's time in reserve, so it stops after eight walks."""
    ticks = count()
    player = SearchPlayer(budget=10.0, clock=lambda: float(next(ticks)))
    state = find_variant("four_card").new_game(4)
    seat = state.to_move
    assert seat is not None
    assert len(state.legal_actions(seat)) > 1
    player.choose(state.view(seat), random.Random(1))
    assert next(ticks) == 9


def test_levels_are_found_by_name() -> None:
    """``strong`` is the tree search (a flat search in the team games, where it measured stronger);
    ``strong1``, the earlier flat search, stays selectable as the baseline."""
    strong = find_player("strong", budget=None, max_worlds=5)
    assert isinstance(strong, StrongPlayer)
    assert strong.tree == SearchPlayer(budget=None, iterations=20)
    assert strong.flat == FlatSearch(budget=None, worlds=5)
    assert find_player("strong1", budget=None, max_worlds=5) == Strong1Player(budget=None, max_worlds=5)


def test_views_travel_to_another_process() -> None:
    """The bot hands views to a worker process: a pickled view comes back equal, its cards interned."""
    state = find_variant("classic").new_game(8)
    view = state.view(state.to_move)
    copy = pickle.loads(pickle.dumps(view))
    assert copy == view
    assert copy.hand[0] is view.hand[0]


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown computer level"):
        find_player("genius")


def test_group_view_is_refused() -> None:
    state = find_variant("czech").new_game(1)
    with pytest.raises(ValueError, match="seat"):
        Knowledge(state.view(None))


def test_flat_search_stops_on_its_budget() -> None:
    """The flat search keeps a margin: a round (one world, every candidate) costs one tick, the budget is 10
    ticks of which the rounds may use 9: tick 0 at the start, tick k after round k, so nine rounds fit and
    a tenth would end at 10."""
    ticks = count()
    player = FlatSearch(budget=10.0, racing=False, clock=lambda: float(next(ticks)))
    state = find_variant("czech").new_game(4, {"players": 4})
    seat = state.to_move
    assert seat is not None
    player.choose(state.view(seat), random.Random(1))
    assert next(ticks) == 10


@pytest.mark.parametrize(("variant", "options"), samples())
def test_flat_search_races_candidates_that_are_clearly_behind_out(
    monkeypatch: pytest.MonkeyPatch, variant: str, options: dict[str, object]
) -> None:
    """Racing: when every world says the same candidate is best by a wide margin, the others leave the race
    after the warm-up rounds and the search ends early with the leader; without racing it plays every
    round for every candidate.  In a game whose tuning says not to race, even a candidate far behind plays
    all its rounds.  (Unweighted worlds: a world's weight would change how soon the evidence is clear.)"""
    racing_rounds = WARMUP if tuning(variant).racing else 30
    _, view = choosing(variant, options, 2)
    best = view.legal[-1]

    def finish(world: GameState, deal: int) -> list[float]:
        played = world.history[-1] if world.history else None  # a sampled world's history is the candidate
        noise = random.random()
        return [(10.0 if played == best else 0.0) + noise for _ in range(world.num_players)]

    monkeypatch.setattr("engine.players.flat.finish", finish)
    calls: list[int] = []
    monkeypatch.setattr("engine.players.flat.record", lambda level, playouts: calls.append(playouts))
    assert FlatSearch(budget=None, worlds=30, weighted=False).choose(view, random.Random(1)) == best
    assert calls[-1] == racing_rounds * len(view.legal)
    assert FlatSearch(budget=None, worlds=30, weighted=False, racing=False).choose(view, random.Random(1)) == best
    assert calls[-1] == 30 * len(view.legal)


@pytest.mark.parametrize(("variant", "options"), samples())
def test_worlds_are_weighted_by_how_well_they_explain_the_others_play(variant: str, options: dict[str, object]) -> None:
    """After tricks played by the basic heuristics, the real deal explains every play (weight 1); sampled
    worlds where the heuristics would have played otherwise weigh less, and some do: in a game whose tuning
    weighs worlds; in the others every world weighs 1."""
    lighter = 0
    for seed in range(1, 6):
        state = find_variant(variant).new_game(seed, options)
        for _ in range(18):
            mover = state.to_move
            assert mover is not None
            choice = heuristic(variant)(Situation.of_state(state, mover), True)
            state.apply(choice or state.legal_actions(mover)[0])
        seat = state.to_move
        assert seat is not None
        assert likelihood(state.fork(), seat, random.Random(seed)) == 1.0
        knowledge = Knowledge(state.view(seat))
        rng = random.Random(seed)
        weights = [likelihood(knowledge.world(rng), seat, rng) for _ in range(20)]
        assert all(0 < w <= 1 for w in weights)
        lighter += sum(1 for w in weights if w < 1)
    assert (lighter > 0) == tuning(variant).weighted


