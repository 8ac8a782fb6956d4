"""Computer players (engine.players): they see only their seat's view (X1), always act legally, sample
worlds that agree with what they saw, stop on their budget, and play by the rules they cite."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from itertools import count

import pytest

from engine import Action, Card, GameState, Kind, find_variant
from engine.games.classic.heuristics import choose as classic_choice
from engine.games.classic.rules import ESUIT, TRUMP_SUIT
from engine.games.czech.heuristics import choose as czech_choice
from engine.games.four_card.heuristics import choose as four_card_choice
from engine.players import (
    BasicPlayer,
    ExpertPlayer,
    Player,
    RandomPlayer,
    SearchPlayer,
    StrongLevel,
    StrongPlayer,
    find_player,
    playout,
)
from engine.players.contract import Situation, heuristic
from engine.players.flat import WARMUP, FlatSearch
from engine.players.search import heuristic_step, likelihood
from engine.players.worlds import GREEDY_ATTEMPTS, Knowledge
from tests.helpers import GAME_CONFIGS, act, deck_of, table_cards

SAME_FIELDS = [
    *("seat", "hand", "hand_sizes", "legal", "trick", "trick_top", "tricks", "tricks_taken", "totals", "to_move"),
    *("leader", "trump", "trump_card", "trump_card_holder", "stock_size", "talon_size", "doubled"),
    *("trump_lead_banned", "stock_trump_index", "eggs_pending", "deals"),
]


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
            StrongPlayer(budget=None, max_worlds=6),
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
    player = StrongPlayer(budget=10.0, clock=lambda: float(next(ticks)))
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
    assert isinstance(strong, StrongLevel)
    assert strong.tree == SearchPlayer(budget=None, iterations=20)
    assert strong.flat == FlatSearch(budget=None, worlds=5)
    assert find_player("strong1", budget=None, max_worlds=5) == StrongPlayer(budget=None, max_worlds=5)


def test_views_travel_to_another_process() -> None:
    """The bot hands views to a worker process: a pickled view comes back equal, its cards interned."""
    state = find_variant("classic").new_game(8)
    view = state.view(state.to_move)
    copy = pickle.loads(pickle.dumps(view))
    assert copy == view
    assert copy.hand[0] is view.hand[0]


def table(state: GameState, seat: int) -> Situation:
    return Situation.of_view(state.view(seat))


def test_c12_basic_catches_the_queen() -> None:
    """C12: holding the 6♣ when an opponent's Q♣ is in the trick, the basic player plays it."""
    layout = (
        "AD 6D 7D 8S 9S KS TS AS 6H | QC 7H 8H 9H KH TH AH 6S 7S | "
        "6C 7C 8C 9C KC TC AC JD JH | JS JC QD QH QS 8D 9D KD TD"
    )
    state = find_variant("classic").new_game(1, {"redeal": False}, stacked=[layout], dealer=3)
    act(state, "0 play AD", "1 play QC")
    choice = classic_choice(table(state, 2))
    assert choice == Action.parse("2 play 6C")


QUEEN_HUNT = (
    "AD 6D 7D 8S 9S KS TS AS 6H | QC 7H 8H 9H KH TH AH 6S 7S | 6C 7C 8C 9C KC TC AC JD JH | JS JC QD QH QS 8D 9D KD TD"
)


@pytest.mark.parametrize("totals", [(0, 0), (10, 0)])
def test_c12_strong_weighs_a_catch_that_ends_the_deal_or_the_series(totals: tuple[int, int]) -> None:
    """C12: a candidate that catches the queen ends the deal at once (and, from 10 series points, the series):
    the search must score that deal, not the next one, and not read past the list of deals."""
    state = find_variant("classic").new_game(1, {"redeal": False}, stacked=[QUEEN_HUNT], dealer=3)
    state.totals = list(totals)
    act(state, "0 play AD", "1 play QC")
    strong = StrongPlayer(budget=None, max_worlds=4)
    assert strong.choose(state.view(2), random.Random(1)) in state.legal_actions(2)  # it used to raise IndexError
    world = Knowledge(state.view(2)).world(random.Random(2))
    deal = len(world.deals)
    world.apply(Action.parse("2 play 6C"))
    assert playout(world, 2, deal) == 60  # no card points, 4 series points to none: 15 × 4
    assert len(world.deals) == deal + 1  # the next deal was not played


def test_k4_basic_throws_the_kozel_when_void() -> None:
    """K4/K5: unable to follow, the basic player gets rid of the kozel (13 penalty points)."""
    layout = "7H 8H 9H TH JH QH KH AH | QS 7C 8C 9C TC JC QC KC | 7S 8S 9S TS JS KS AS AC | 7D 8D 9D TD JD QD KD AD"
    state = find_variant("czech").new_game(1, {"players": 4}, stacked=[layout], dealer=3)
    act(state, "0 play 7H")
    assert czech_choice(table(state, 1)) == Action.parse("1 play QS")


def test_f10_basic_takes_over_with_a_molodka() -> None:
    """F10: holding four cards of one suit while the other team leads, the basic player plays them."""
    layout = "6S 7S 8S 9S | AH KH QH JH | 6C 7C 8C 9C | 6D 7D 8D 9D / ... @ 5"
    variant = find_variant("four_card")
    state = variant.new_game(1, stacked=[variant.layout(layout)], dealer=0)
    seat = state.to_move
    assert seat == 1
    choice = four_card_choice(table(state, 1))
    assert choice is not None and choice.kind is Kind.MOLODKA
    act(state, "1 molodka AH KH QH JH")
    # seat 2's own four clubs may not replace the original leader's molodka (F10 priority): it answers
    answer = four_card_choice(table(state, 2))
    assert answer is not None and answer.kind is not Kind.MOLODKA
    assert answer in state.legal_actions(2)


def test_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown computer level"):
        find_player("genius")


def test_group_view_is_refused() -> None:
    state = find_variant("czech").new_game(1)
    with pytest.raises(ValueError, match="seat"):
        Knowledge(state.view(None))


def test_f10_cards_sent_back_by_a_molodka_stay_with_their_players_in_every_world() -> None:
    """F10/X1: after a molodka the cards that were on the table went back face up to their hands: seat 1
    (who sees them) samples worlds where seat 0 holds the 6♠ and seat 2 the J♠ — never anyone else."""
    variant = find_variant("four_card")
    layout = "6S 7S 8S TD | 6C 7C 8C 9C | JS QS 6D 7D | 6H 7H 8H 9H / AD ... @ 0"
    state = variant.new_game(1, stacked=[variant.layout(layout)], dealer=3)
    act(state, "0 lead 6S", "1 discard 6C", "2 beat JS", "3 molodka 6H 7H 8H 9H")
    knowledge = Knowledge(state.view(1))
    rng = random.Random(9)
    for _ in range(50):
        world = knowledge.world(rng)
        assert Card.parse("6S") in world.hands[0]
        assert Card.parse("JS") in world.hands[2]
        assert world.trick == state.trick


def test_c7_and_k6_announcements_narrow_the_worlds() -> None:
    """C7: a player who went out of trumps holds no trump afterwards; K6: the doubler keeps the kozel."""
    state = find_variant("czech").new_game(5, {"players": 4})
    holder = next(s for s in range(4) if Card.parse("QS") in state.hands[s])
    act(state, f"{holder} double QS")
    observer = (holder + 1) % 4
    knowledge = Knowledge(state.view(observer))
    rng = random.Random(1)
    assert all(Card.parse("QS") in knowledge.world(rng).hands[holder] for _ in range(30))

    rng = random.Random(3)
    for seed in range(200):
        classic = find_variant("classic").new_game(seed)
        play_until_second_deal(classic, rng)
        exchanges = [a for a in classic.legal_actions(classic.to_move or 0) if a.kind is Kind.EXCHANGE]
        if not exchanges:
            continue
        exchanger = exchanges[0].seat
        classic.apply(exchanges[0])
        partner = (exchanger + 2) % 4
        classic.apply(classic.legal_actions(partner)[0])
        opponent = (exchanger + 1) % 4
        knowledge = Knowledge(classic.view(opponent))
        for _ in range(20):
            world = knowledge.world(rng)
            assert not any(ESUIT[c] == TRUMP_SUIT for c in world.hands[exchanger])
        return
    pytest.fail("no deal offered an exchange")


def play_until_second_deal(state: GameState, rng: random.Random) -> None:
    while not state.deals:
        choices = [a for a in state.all_legal_actions() if a.kind is not Kind.REDEAL]
        state.apply(rng.choice(choices))


def rigged(kind: Kind, worth: float) -> object:
    """A stand-in for the playouts: a deal in which ``kind`` was announced is worth ``worth`` to the
    announcer's side, any other deal nothing, so only a decision by simulated value follows ``worth``."""

    def finish(state: GameState, deal: int) -> list[float]:
        announcer = next((a.seat for a in state.history if a.kind is kind), None)
        if announcer is None:
            return [0.0] * state.num_players
        return [worth if s % 2 == announcer % 2 else -worth for s in range(state.num_players)]

    return finish


def first_position_with(kind: Kind) -> tuple[GameState, int]:
    """A classic position where some seat may announce ``kind`` (C6 in a first deal, C7 in a later one)."""
    rng = random.Random(4)
    for seed in range(300):
        state = find_variant("classic").new_game(seed)
        if kind is Kind.EXCHANGE:
            play_until_second_deal(state, rng)
        for seat in range(4):
            if any(a.kind is kind for a in state.legal_actions(seat)):
                return state, seat
    pytest.fail(f"no deal offered a {kind.value}")


SEARCHES = [
    pytest.param(SearchPlayer(budget=None, iterations=40), "engine.players.search.finish", id="tree"),
    pytest.param(FlatSearch(budget=None, worlds=10), "engine.players.flat.finish", id="flat"),
]


@pytest.mark.parametrize("kind", [Kind.REDEAL, Kind.EXCHANGE])
@pytest.mark.parametrize(("player", "target"), SEARCHES)
def test_c6_c7_announcements_are_decided_by_search(
    kind: Kind, player: Player, target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """C6/C7: the strong player (both its searches) redeals or goes out of trumps when the simulated deals
    say it pays, and not when they say it costs, whatever the hand looks like to the heuristics."""
    state, seat = first_position_with(kind)
    view = state.view(seat)
    announce = next(a for a in view.legal if a.kind is kind)
    monkeypatch.setattr(target, rigged(kind, 100.0))
    assert player.choose(view, random.Random(1)) == announce
    monkeypatch.setattr(target, rigged(kind, -100.0))
    assert player.choose(view, random.Random(1)) != announce


@pytest.mark.parametrize("player", [SearchPlayer(budget=None, iterations=30), FlatSearch(budget=None, worlds=6)])
def test_c6_a_real_search_weighs_the_redeal_legally(player: Player) -> None:
    """C6: with the real playouts (a redeal in a sampled world deals from a fresh seed) the answer of a seat
    that may redeal is legal."""
    state, seat = first_position_with(Kind.REDEAL)
    view = state.view(seat)
    choice = player.choose(view, random.Random(2))
    assert choice is None or choice in view.legal


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


@pytest.mark.parametrize(
    ("variant", "options", "racing_rounds"),
    [("czech", {"players": 4}, WARMUP), ("four_card", {}, 30)],
    ids=["czech", "four_card"],
)
def test_flat_search_races_candidates_that_are_clearly_behind_out(
    monkeypatch: pytest.MonkeyPatch, variant: str, options: dict[str, object], racing_rounds: int
) -> None:
    """Racing: when every world says the same candidate is best by a wide margin, the others leave the race
    after the warm-up rounds and the search ends early with the leader; without racing it plays every
    round for every candidate.  Four-card Kozel never races (``FULL_ROUNDS``): even a candidate far behind
    plays all its rounds there."""
    state = find_variant(variant).new_game(4 if variant == "czech" else 2, options)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    assert len(view.legal) > 2
    best = view.legal[-1]

    def finish(world: GameState, deal: int) -> list[float]:
        played = world.history[-1] if len(world.history) > len(state.history) else None
        noise = random.random()
        return [(10.0 if played == best else 0.0) + noise for _ in range(world.num_players)]

    monkeypatch.setattr("engine.players.flat.finish", finish)
    calls: list[int] = []
    monkeypatch.setattr("engine.players.flat.record", lambda level, playouts: calls.append(playouts))
    assert FlatSearch(budget=None, worlds=30).choose(view, random.Random(1)) == best
    assert calls[-1] == racing_rounds * len(view.legal)
    assert FlatSearch(budget=None, worlds=30, racing=False).choose(view, random.Random(1)) == best
    assert calls[-1] == 30 * len(view.legal)


@pytest.mark.parametrize(("variant", "options"), [("classic", {}), ("czech", {"players": 4})])
def test_worlds_are_weighted_by_how_well_they_explain_the_others_play(variant: str, options: dict[str, object]) -> None:
    """After tricks played by the basic heuristics, the real deal explains every play (weight 1); sampled
    worlds where the heuristics would have played otherwise weigh less, and some do."""
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
        assert likelihood(state.fork(), seat) == 1.0
        knowledge = Knowledge(state.view(seat))
        rng = random.Random(seed)
        weights = [likelihood(knowledge.world(rng), seat) for _ in range(20)]
        assert all(0 < w <= 1 for w in weights)
        lighter += sum(1 for w in weights if w < 1)
    assert lighter > 0


def test_c7_a_seat_that_may_go_out_of_trumps_knows_his_partner_holds_a_plain_card() -> None:
    """C7: the exchange is legal only while the partner holds a plain card to give back, so every world a
    seat samples lets him make it, and a search that weighs it applies it in every world.  Unconstrained,
    about one world in 2,300 deals the partner nine of the 14 trumps the seat cannot see, and a search
    samples hundreds of worlds a decision."""
    state = find_variant("classic").new_game(1011)
    while not state.deals:
        heuristic_step(state)
    seat = 2
    view = state.view(seat)
    exchange = next(a for a in view.legal if a.kind is Kind.EXCHANGE)
    knowledge = Knowledge(view)
    rng = random.Random(1)
    for _ in range(8000):
        assert exchange in knowledge.world(rng).legal_actions(seat)
    for player in (FlatSearch(budget=None, worlds=20), ExpertPlayer(budget=None, worlds=20)):
        assert player.choose(view, random.Random(2)) in view.legal
