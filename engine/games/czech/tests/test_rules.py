"""Czech Kozel, scenario tests per rule K1–K10, for every player count 3–6.

German suits map onto the card model as červené = ♥ (H), zelené = ♠ (S), žaludy = ♣ (C), kule = ♦ (D);
spodek = J, svršek = Q.  The kozel is the Q♠ (the green svršek).
"""

from __future__ import annotations

import random

import pytest

from engine import Card, IllegalActionError, Kind, OptionsError, TrickRecord, find_variant, parse_cards
from engine.games.czech.names import german_name, german_short
from engine.games.czech.rules import DECK, HAND_SIZES, KOZEL, PENALTY, CzechState, penalty_points, table_points
from engine.simulate import play_random
from tests.helpers import act, check_invariants, legal_texts

VARIANT = find_variant("czech")
PLAYER_COUNTS = [3, 4, 5, 6]

# Four players, each holding one whole suit: seat 0 leads hearts and nobody can follow.
SUITS = "7H 8H 9H TH JH QH KH AH | 7S 8S 9S TS JS QS KS AS | 7C 8C 9C TC JC QC KC AC | 7D 8D 9D TD JD QD KD AD"
# Four players, mixed hands: seat 1 holds the kozel.
MIXED = "7H 8H 7S 8S 7C 8C 7D AD | 9H TH QS 9S 9C TC 9D TD | JH QH TS JS JC QC JD QD | KH AH KS AS KC AC KD 8D"


def deal(layout: str, players: int = 4, dealer: int | None = None) -> CzechState:
    dealer = players - 1 if dealer is None else dealer
    state = VARIANT.new_game(1, {"players": players}, stacked=[layout], dealer=dealer)
    assert isinstance(state, CzechState)
    return state


def random_state(players: int, seed: int = 0) -> CzechState:
    state = VARIANT.new_game(seed, {"players": players})
    assert isinstance(state, CzechState)
    return state


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K1_three_to_six_players_each_for_himself(players: int) -> None:
    state = random_state(players)
    assert state.num_players == players and len(state.totals) == players


@pytest.mark.parametrize("players", [0, 1, 2, 7])
def test_K1_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(OptionsError):
        VARIANT.new_game(1, {"players": players})


def test_K2_32_german_cards_ranked_7_to_ace_with_the_ten_below_the_under() -> None:
    assert len(DECK) == 32 and all(c.rank >= 7 for c in DECK)
    state = deal(MIXED)
    act(state, "0 play 7H", "1 play TH", "2 play JH", "3 play KH")
    assert state.tricks_done[-1].winner == 3
    state = deal(MIXED)
    act(state, "0 play 8H", "1 play TH", "2 play JH", "3 play KH")
    assert [p.cards[0] for p in state.tricks_done[-1].plays] == list(parse_cards("8H TH JH KH"))
    assert german_name(KOZEL) == "svršek (zelené)"
    assert german_short(KOZEL) == "O🍃"
    assert german_name(Card.parse("JD"), "en") == "under (bells)"
    assert german_name(Card.parse("AC"), "ru") == "туз (жёлуди)"


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K3_deal_sizes_talon_dealer_and_first_lead(players: int) -> None:
    dealers = set()
    for seed in range(25):
        state = random_state(players, seed)
        per = HAND_SIZES[players]
        assert [len(h) for h in state.hands] == [per] * players
        assert len(state.talon) == 32 - per * players == (0 if players == 4 else 2)
        assert state.to_move == (state.dealer + 1) % players
        dealers.add(state.dealer)
    assert dealers == set(range(players))
    state = random_state(players)
    first = state.dealer
    play_random(state, random.Random(1), max_deals=1)
    assert state.dealer == (first + 1) % players and state.to_move == (first + 2) % players


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K3_the_talon_is_in_no_view(players: int) -> None:
    state = random_state(players, 5)
    for seat in [None, *range(players)]:
        view = state.view(seat)
        assert view.talon_size == len(state.talon)
    check_invariants(state)


def test_K4_follow_suit_no_trumps_highest_of_the_led_suit_wins() -> None:
    state = deal(MIXED)
    act(state, "0 play 7S")
    assert legal_texts(state, 1) == {"1 play QS", "1 play 9S"}  # must follow leaves
    act(state, "1 play 9S", "2 play TS", "3 play AS")
    assert state.tricks_done[-1].winner == 3 and state.to_move == 3
    state = deal(SUITS)
    act(state, "0 play 7H")
    assert len(state.legal_actions(1)) == 8  # cannot follow: any card
    act(state, "1 play AS", "2 play AC", "3 play AD")
    assert state.tricks_done[-1].winner == 0  # aces of other suits are no trumps


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K4_random_deal_follows_suit(players: int) -> None:
    state = random_state(players, 11)
    rng = random.Random(players)
    while not state.deals:
        mover = state.to_move
        assert mover is not None
        if state.trick:
            led = state.trick[0].cards[0].suit
            follow = [c for c in state.hands[mover] if c.suit is led]
            for a in state.legal_actions(mover):
                assert a.kind is Kind.PLAY and (not follow or a.cards[0].suit is led)
        state.apply(rng.choice([a for a in state.legal_actions(mover) if a.kind is Kind.PLAY]))


def test_K5_penalty_points_hearts_one_kozel_thirteen() -> None:
    assert penalty_points(DECK) == 21
    assert PENALTY[KOZEL] == 13 and PENALTY[Card.parse("AH")] == 1 and PENALTY[Card.parse("QC")] == 0
    state = deal(MIXED)
    play_out(state)
    assert sum(state.deals[0].points) == 21
    assert state.deals[0].score == state.deals[0].points


def play_out(state: CzechState) -> None:
    """Finish the deal with each player's lowest legal card."""
    while not state.deals:
        mover = state.to_move
        assert mover is not None
        state.apply(min((a for a in state.legal_actions(mover) if a.kind is Kind.PLAY), key=lambda a: a.cards[0]))


def test_K6_double_only_by_the_kozel_holder_before_the_first_lead() -> None:
    state = deal(MIXED)
    assert "1 double QS" in legal_texts(state, 1)
    assert not any(a.kind is Kind.DOUBLE for s in (0, 2, 3) for a in state.legal_actions(s))
    assert state.to_move == 0 and state.legal_actions(0)  # the leader need not wait for him
    act(state, "1 double QS")
    assert KOZEL in state.hands[1]  # shown, and kept
    assert state.view(None).doubled and state.view(3).deal_log[0].cards == (KOZEL,)
    assert "1 double QS" not in legal_texts(state, 1)
    play_out(state)
    result = state.deals[0]
    assert "double" in result.events
    assert result.score == tuple(2 * p for p in result.points) and sum(result.score) == 42


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K2_K5_K6_for_every_player_count(players: int) -> None:
    for seed in range(12):
        state = random_state(players, seed)
        dealt = {c for h in state.hands for c in h} | set(state.talon)
        assert dealt == set(DECK)  # K2: the 32 German cards
        holder = next((s for s in range(players) if KOZEL in state.hands[s]), None)
        doubles = [a for a in state.all_legal_actions() if a.kind is Kind.DOUBLE]
        if holder is None:  # the kozel lies in the talon: nobody can double
            assert doubles == []
        else:
            assert [a.seat for a in doubles] == [holder]
        talon_penalty = penalty_points(state.talon)
        play_random(state, random.Random(seed), max_deals=1)
        result = state.deals[0]
        if "all_tricks" not in result.events:  # K5: every penalty card not in the talon is taken by someone
            assert sum(result.points) == 21 - talon_penalty


def test_K6_no_double_after_the_first_lead() -> None:
    state = deal(MIXED)
    act(state, "0 play 7H")
    assert not any(a.kind is Kind.DOUBLE for a in state.legal_actions(1))
    with pytest.raises(IllegalActionError):
        act(state, "1 double QS")


def test_K7_taking_every_trick_gives_21_to_everybody_else() -> None:
    state = deal(SUITS)
    play_out(state)
    result = state.deals[0]
    assert result.tricks == (8, 0, 0, 0)
    assert result.score == (0, 21, 21, 21) and "all_tricks" in result.events


def test_K7_after_a_double_42() -> None:
    state = deal(SUITS)
    act(state, "1 double QS")
    play_out(state)
    assert state.deals[0].score == (0, 42, 42, 42)


def settle(state: CzechState, piles: list[str], tricks: list[int]) -> None:
    """Finish the deal with the given piles and trick counts (white-box, for the scoring rules)."""
    state.piles = [list(parse_cards(p)) for p in piles]
    state.hands = [[] for _ in state.hands]
    state.tricks_taken = tricks
    state.tricks_done = [TrickRecord((), 0)] * sum(tricks)
    state._score_deal()


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K7_for_every_player_count(players: int) -> None:
    state = random_state(players)
    per = HAND_SIZES[players]
    settle(state, [" ".join(c.ascii for c in DECK[: per * players])] + [""] * (players - 1),
           [per] + [0] * (players - 1))  # fmt: skip
    assert state.deals[0].score == (0,) + (21,) * (players - 1)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K8_the_game_ends_after_the_deal_in_which_a_total_passes_100(players: int) -> None:
    state = random_state(players)
    state.totals = [100] + [30] * (players - 1)
    settle(state, ["7C"] + ["AH"] + [""] * (players - 2), [1, 1] + [0] * (players - 2))
    assert state.outcome is None  # 100 is not over 100
    settle(state, ["7H"] + ["8H"] + [""] * (players - 2), [1, 1] + [0] * (players - 2))
    assert state.outcome is not None
    assert state.outcome.losers == (0,)
    assert state.outcome.winners == tuple(range(2, players)) or (players == 3 and state.outcome.winners == (2,))
    assert state.all_legal_actions() == []


def test_K8_K9_winners_ties_and_table_points() -> None:
    assert table_points([101, 40, 40, 70]) == (0, 3, 3, 1)
    assert table_points([0, 120, 30]) == (6, 0, 1)
    assert table_points([0, 0, 105, 50, 60]) == (6, 6, 0, 1, 1)
    state = random_state(3)
    state.totals = [0, 95, 40]
    settle(state, ["", "QS", "7H 8H"], [0, 2, 1])
    assert state.outcome is not None
    assert state.outcome.winners == (0,) and state.outcome.table_points == (6, 0, 1)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_K10_no_misdeal_and_no_wrong_card_is_possible(players: int) -> None:
    state = random_state(players, 3)
    play_random(state, random.Random(players), max_deals=3)
    for seat in range(players):
        assert all(a.cards[0] in state.hands[seat] for a in state.legal_actions(seat) if a.kind is Kind.PLAY)
    mover = state.to_move
    assert mover is not None
    foreign = next(c for c in DECK if c not in state.hands[mover])
    with pytest.raises(IllegalActionError):
        act(state, f"{mover} play {foreign.ascii}")


# --- pinned claims: each test below fails when one sentence of the rule book is broken -------------------


def test_K2_the_under_beats_the_ten_and_the_king_beats_the_over() -> None:
    state = deal(MIXED)
    act(state, "0 play 7D", "1 play TD", "2 play JD", "3 play 8D")
    assert state.tricks_done[-1].winner == 2  # spodek (U) over the ten
    state = deal(MIXED)
    act(state, "0 play 7D", "1 play TD", "2 play QD", "3 play 8D")
    assert state.tricks_done[-1].winner == 2  # svršek (O) over the ten
    state = deal(MIXED)
    act(state, "0 play 7D", "1 play 9D", "2 play JD", "3 play KD")
    assert state.tricks_done[-1].winner == 3  # král (K) over the under
    state = deal(MIXED)
    act(state, "0 play 7S", "1 play 9S", "2 play TS", "3 play KS")
    assert state.tricks_done[-1].winner == 3


def test_K2_the_ten_beats_the_nine_and_the_ace_beats_the_king() -> None:
    state = deal(MIXED)
    act(state, "0 play 7C", "1 play 9C", "2 play JC", "3 play AC")
    assert state.tricks_done[-1].winner == 3
    state = deal(MIXED)
    act(state, "0 play 8C", "1 play TC", "2 play JC", "3 play KC")
    assert state.tricks_done[-1].winner == 3


def test_K4_a_higher_card_of_another_suit_never_takes_the_trick() -> None:
    state = deal(SUITS, dealer=0)  # seat 1 leads leaves (♠); the others hold no leaves
    act(state, "1 play 7S", "2 play AC", "3 play AD", "0 play AH")
    assert state.tricks_done[-1].winner == 1 and state.to_move == 1


def test_K6_a_double_holds_for_its_deal_only() -> None:
    state = VARIANT.new_game(1, {"players": 4}, stacked=[SUITS, MIXED], dealer=3)
    assert isinstance(state, CzechState)
    act(state, "1 double QS")
    play_out(state)
    assert state.deals[0].score == (0, 42, 42, 42)
    assert not state.doubled and not state.view(None).doubled
    assert "1 double QS" in legal_texts(state, 1)  # the kozel's holder in the new deal may double again
    while len(state.deals) < 2:
        mover = state.to_move
        assert mover is not None
        state.apply(min((a for a in state.legal_actions(mover) if a.kind is Kind.PLAY), key=lambda a: a.cards[0]))
    result = state.deals[1]
    assert "double" not in result.events and result.score == result.points


def test_K7_the_taker_of_every_trick_scores_0_even_with_the_kozel_and_hearts() -> None:
    state = deal(SUITS)
    play_out(state)
    assert state.deals[0].points == (21, 0, 0, 0)  # every heart and the kozel are his
    assert state.deals[0].score == (0, 21, 21, 21)


def test_K8_K9_a_total_of_exactly_100_is_not_over_100() -> None:
    assert table_points([100, 101, 50]) == (1, 0, 3)
    assert table_points([40, 100, 100, 120]) == (3, 1, 1, 0)


def test_K9_all_over_100_in_one_deal_the_lowest_still_wins_3() -> None:
    """Decided: if every player passes 100 in the same deal, the lowest total wins and gets 3."""
    assert table_points([105, 110, 120]) == (3, 0, 0)
    assert table_points([130, 101, 101, 140]) == (0, 3, 3, 0)
    state = random_state(3)
    state.totals = [95, 99, 100]
    settle(state, ["7H 8H 9H TH JH QH", "QS", "KH AH"], [2, 1, 1])  # 6, 13 and 2 penalty points
    assert state.totals == [101, 112, 102]
    assert state.outcome is not None
    assert state.outcome.winners == (0,) and state.outcome.losers == (0, 1, 2)
    assert state.outcome.table_points == (3, 0, 0)


def test_K9_a_winner_with_0_gets_6_and_the_others_under_100_get_1() -> None:
    state = random_state(4)
    state.totals = [0, 100, 60, 95]
    settle(state, ["", "7H", "", "QS 8H"], [0, 1, 0, 3])  # 1 and 14 penalty points
    assert state.totals == [0, 101, 60, 109]
    assert state.outcome is not None
    assert state.outcome.winners == (0,) and state.outcome.losers == (1, 3)
    assert state.outcome.table_points == (6, 0, 1, 0)


def test_K1_the_registry_seats_three_to_six_each_for_himself() -> None:
    """K1: three to six players, each for himself."""
    variant = find_variant("czech")
    assert variant.players == (3, 4, 5, 6) and not variant.teams


@pytest.mark.parametrize("players", [2, 7])
def test_K1_the_options_refuse_other_player_counts(players: int) -> None:
    with pytest.raises(OptionsError, match="players"):
        find_variant("czech").options({"players": players})
