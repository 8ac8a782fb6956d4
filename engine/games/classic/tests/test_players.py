"""Classic Kozel's computer players: its heuristics (the basic level) and what its rules tell the worlds they
sample, and the searches where its rules ask for something of them."""

from __future__ import annotations

import random

import pytest

from engine import Action, GameState, Kind, find_variant
from engine.games.classic.heuristics import choose as classic_choice
from engine.games.classic.rules import ESUIT, TRUMP_SUIT
from engine.players import ExpertPlayer, Player, SearchPlayer, Strong1Player, playout
from engine.players.contract import Situation
from engine.players.flat import FlatSearch
from engine.players.search import heuristic_step
from engine.players.worlds import Knowledge
from tests.helpers import act


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
    strong = Strong1Player(budget=None, max_worlds=4)
    assert strong.choose(state.view(2), random.Random(1)) in state.legal_actions(2)  # it used to raise IndexError
    world = Knowledge(state.view(2)).world(random.Random(2))
    deal = len(world.deals)
    world.apply(Action.parse("2 play 6C"))
    assert playout(world, 2, deal) == 60  # no card points, 4 series points to none: 15 × 4
    assert len(world.deals) == deal + 1  # the next deal was not played


def test_c7_a_player_who_went_out_of_trumps_holds_no_trump_in_any_world() -> None:
    """C7: a player who went out of trumps holds no trump afterwards."""
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
