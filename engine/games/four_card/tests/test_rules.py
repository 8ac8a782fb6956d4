"""Four-card Kozel, one or more scenario tests per rule F1–F16, on stacked decks.

Layouts are written as ``"seat0 | seat1 | seat2 | seat3 / stock... @ trump index"`` (see ``engine.Layout``).
With ``dealer=3`` seat 0 leads the first trick (F16).
"""

from __future__ import annotations

import itertools

import pytest

from engine import (
    Card,
    IllegalActionError,
    Kind,
    NotYourTurnError,
    OptionsError,
    Suit,
    TrickRecord,
    find_variant,
    parse_cards,
)
from engine.games.four_card.rules import DECK, POINTS, FourCardState, beats, card_points, defeat_points
from engine.state import deal_rng
from tests.helpers import act, check_invariants, legal_texts, play_deal

VARIANT = find_variant("four_card")

# Seats 1 and 3 each hold four cards of one suit (molodkas); trump is diamonds (the A♦ on top of the stock).
TWO_MOLODKAS = "6S 7S 8S TD | 6C 7C 8C 9C | JS QS 6D 7D | 6H 7H 8H 9H / AD ... @ 0"


def deal(layout: str, dealer: int = 3) -> FourCardState:
    state = VARIANT.new_game(1, stacked=[layout], dealer=dealer)
    assert isinstance(state, FourCardState)
    return state


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


# --- F1–F6 ------------------------------------------------------------------------------------------------


def test_F1_four_players_in_two_teams_partners_opposite() -> None:
    state = deal(TWO_MOLODKAS)
    assert state.num_players == 4
    assert [state.team(s) for s in range(4)] == [0, 1, 0, 1]


def test_F2_deck_of_36_and_rank_order_with_ten_above_king() -> None:
    assert len(DECK) == 36 == len(set(DECK))
    hearts = Suit.HEARTS
    order = cards("6H 7H 8H 9H JH QH KH TH AH")
    for low, high in itertools.pairwise(order):
        assert beats(high, low, trump=Suit.SPADES) and not beats(low, high, trump=Suit.SPADES)
    assert beats(Card.parse("TH"), Card.parse("KH"), trump=hearts)


def test_F3_card_points_total_120() -> None:
    assert card_points(DECK) == 120
    assert [POINTS[c] for c in cards("6S 7S 8S 9S JS QS KS TS AS")] == [0, 0, 0, 0, 2, 3, 4, 10, 11]


def test_F4_four_cards_each_dealt_from_left_of_dealer_rest_is_stock() -> None:
    state = VARIANT.new_game(42)
    assert [len(h) for h in state.hands] == [4, 4, 4, 4]
    assert isinstance(state, FourCardState) and len(state.stock) == 20
    # The shuffled deck is dealt one card at a time, the player left of the dealer first.
    deck = list(DECK)
    deal_rng(42, 0, 0).shuffle(deck)
    first = (state.dealer + 1) % 4
    assert deck[0] in state.hands[first] and deck[3] in state.hands[state.dealer]
    assert state.stock == deck[16:]


def test_F5_trump_card_from_the_middle_of_the_stock_stays_in_place() -> None:
    for seed in range(30):
        state = VARIANT.new_game(seed)
        assert isinstance(state, FourCardState) and state.trump_card is not None
        index = state.stock.index(state.trump_card)
        assert 4 <= index < 16  # not among the first or last four cards of the stock
        assert state.trump is state.trump_card.suit
        assert state.view(None).trump_card == state.trump_card


def test_F5_the_trump_card_is_drawn_like_any_other_and_everybody_knows_who_took_it() -> None:
    state = deal("6S 7S 8S 9S | 6C 7C 8C TD | JS QS 6D 7D | 6H 7H 8H KH / 9H AD ... @ 1")
    assert state.trump is Suit.DIAMONDS
    act(state, "0 lead 9S", "1 discard 6C", "2 beat JS", "3 discard 6H")  # seat 2 wins and draws first
    assert state.trump_card_holder == 3
    assert Card.parse("AD") in state.hands[3]
    assert state.view(0).trump_card_holder == 3


def test_F6_beating() -> None:
    c = Card.parse
    assert beats(c("AS"), c("KS"), trump=Suit.HEARTS)  # same suit, higher
    assert beats(c("6H"), c("AS"), trump=Suit.HEARTS)  # trump beats a plain card
    assert not beats(c("AS"), c("6H"), trump=Suit.HEARTS)
    assert not beats(c("AS"), c("6D"), trump=Suit.HEARTS)  # plain cards of different suits never beat
    assert not beats(c("6D"), c("AS"), trump=Suit.HEARTS)
    assert beats(c("7H"), c("6H"), trump=Suit.HEARTS)  # trump over trump by rank


# --- F7–F9 ------------------------------------------------------------------------------------------------


def test_F7_lead_one_to_four_cards_of_one_suit() -> None:
    state = deal("6S 7S 8S TD | 6C 7C 8C 9C | JS QS 6D 7D | 6H 7H 8H 9H / AD ... @ 0")
    leads = {a for a in state.legal_actions(0) if a.kind is Kind.LEAD}
    assert {a.text() for a in leads} == {
        "0 lead 6S", "0 lead 7S", "0 lead 8S", "0 lead TD",
        "0 lead 6S 7S", "0 lead 6S 8S", "0 lead 7S 8S", "0 lead 6S 7S 8S",
    }  # fmt: skip
    with pytest.raises(IllegalActionError, match="not legal now"):
        act(state, "0 lead 8S TD")  # two suits


def test_F7_a_lead_of_four_cards_of_one_suit_is_the_leaders_molodka() -> None:
    state = deal("6S 7S 8S 9S | 6C 7C 8C TD | JS QS 6D 7D | 6H 7H 8H KH / AD ... @ 0")
    assert "0 molodka 6S 7S 8S 9S" in legal_texts(state, 0)
    assert "0 lead 6S 7S 8S 9S" not in legal_texts(state, 0)


def test_F8_answer_beat_card_by_card_mixing_trumps_and_the_led_suit() -> None:
    state = deal("6S 7S 8S TD | KS 6D 9C 9H | JS QS 6C 7C | 6H 7H 8H KH / AD ... @ 0")
    act(state, "0 lead 6S 7S")
    legal = legal_texts(state, 1)
    assert "1 beat KS 6D" in legal  # K♠ beats a spade, the trump 6♦ beats the other
    assert "1 beat KS 9C" not in legal  # the 9♣ beats nothing
    assert "1 discard KS 6D" in legal  # the choice is free: discarding a possible beat is allowed
    assert {a.kind for a in state.legal_actions(1)} == {Kind.BEAT, Kind.DISCARD}
    assert all(len(a.cards) == 2 for a in state.legal_actions(1))  # exactly as many cards as the lead


def test_F8_the_beat_becomes_the_current_top_and_must_itself_be_beaten() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AD ... @ 0")
    act(state, "0 lead 6S", "1 beat KS")
    assert state.view(None).trick_top == 1
    legal = legal_texts(state, 2)
    assert "2 beat QS" not in legal and "2 beat JS" not in legal  # they beat 6♠ but not the K♠
    act(state, "2 discard 6C", "3 discard 6H")
    assert state.tricks_done[-1].winner == 1  # F9: the last beater


def test_F8_discards_are_face_down_for_everybody_else() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AD ... @ 0")
    act(state, "0 lead 6S", "1 discard 9C")
    for seat in (None, 0, 2, 3):
        play = state.view(seat).trick[1]
        assert play.face_down and play.cards == () and play.count == 1
    assert state.view(1).trick[1].cards == (Card.parse("9C"),)
    check_invariants(state)


def test_F9_the_trick_with_its_discards_goes_to_the_last_beaters_team() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H 6D / AD ... @ 0")
    act(state, "0 lead 6S", "1 beat KS", "2 discard 6C", "3 beat 6D")
    assert state.tricks_done[-1].winner == 3
    assert sorted(state.piles[1]) == sorted(cards("6S KS 6C 6D"))
    assert state.tricks_taken == [0, 1]


def test_F9_nobody_beats_the_leader_takes_the_trick() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AD ... @ 0")
    act(state, "0 lead 8S", "1 discard 9C", "2 discard 6C", "3 discard 6H")
    assert state.tricks_done[-1].winner == 0 and state.tricks_taken == [1, 0]


# --- F10 molodka ------------------------------------------------------------------------------------------


def test_F10_molodka_before_the_lead() -> None:
    state = deal(TWO_MOLODKAS)
    assert "1 molodka 6C 7C 8C 9C" in legal_texts(state, 1)
    act(state, "1 molodka 6C 7C 8C 9C")
    assert state.to_move == 2 and state.trick_leader == 0
    assert [a.kind for a in state.legal_actions(2)][:1] in ([Kind.BEAT], [Kind.DISCARD])


def test_F10_molodka_after_beats_returns_the_cards_on_the_table() -> None:
    state = deal(TWO_MOLODKAS)
    act(state, "0 lead 6S", "1 discard 6C", "2 beat JS")
    assert "3 molodka 6H 7H 8H 9H" in legal_texts(state, 3)
    act(state, "3 molodka 6H 7H 8H 9H")
    assert state.hands[0] == cards("6S 7S 8S TD")  # the lead went back
    assert state.hands[1] == cards("6C 7C 8C 9C")  # the discard went back
    assert state.hands[2] == cards("JS QS 6D 7D")  # the beat went back
    assert state.to_move == 0  # play goes on clockwise from the molodka player
    assert [a.seat for a in state.trick] == [3]


def test_F10_a_nearer_molodka_may_replace_one_nobody_answered() -> None:
    state = deal(TWO_MOLODKAS)
    act(state, "3 molodka 6H 7H 8H 9H")
    assert "1 molodka 6C 7C 8C 9C" in legal_texts(state, 1)  # seat 1 is nearer to the original leader 0
    act(state, "1 molodka 6C 7C 8C 9C")
    assert state.hands[3] == cards("6H 7H 8H 9H")
    assert "3 molodka 6H 7H 8H 9H" not in legal_texts(state, 3)  # the farther one may not come back
    assert state.to_move == 2


def test_F10_a_farther_molodka_may_not_replace_a_nearer_one() -> None:
    state = deal(TWO_MOLODKAS)
    act(state, "1 molodka 6C 7C 8C 9C")
    assert not any(a.kind is Kind.MOLODKA for a in state.legal_actions(3))
    with pytest.raises(NotYourTurnError):
        act(state, "3 molodka 6H 7H 8H 9H")


def test_F10_no_replacement_once_the_molodka_was_answered() -> None:
    state = deal(TWO_MOLODKAS)
    act(state, "3 molodka 6H 7H 8H 9H", "0 discard 6S 7S 8S TD")
    assert state.to_move == 1  # seat 1 may only answer now
    assert {a.kind for a in state.legal_actions(1)} == {Kind.DISCARD}


def test_F10_the_original_leaders_molodka_cannot_be_replaced() -> None:
    state = deal("6S 7S 8S 9S | 6C 7C 8C 9C | JS QS 6D 7D | 6H 7H 8H TD / AD ... @ 0")
    act(state, "0 molodka 6S 7S 8S 9S")
    assert "1 molodka 6C 7C 8C 9C" not in legal_texts(state, 1)


def test_F10_cards_returned_by_a_molodka_let_their_owners_answer_in_full() -> None:
    state = deal(TWO_MOLODKAS)
    act(state, "0 lead 6S 7S", "1 discard 6C 7C", "3 molodka 6H 7H 8H 9H")
    assert [len(h) for h in state.hands] == [4, 4, 4, 0]
    act(state, "0 discard 6S 7S 8S TD")
    assert "1 molodka 6C 7C 8C 9C" not in legal_texts(state, 1)  # answered: no replacement any more
    act(state, "1 discard 6C 7C 8C 9C", "2 discard JS QS 6D 7D")
    assert state.tricks_done[-1].winner == 3
    assert all(len(h) == 4 for h in state.hands)
    check_invariants(state)


def test_F10_a_molodka_trick_is_won_as_usual() -> None:
    state = deal(TWO_MOLODKAS)
    act(state, "1 molodka 6C 7C 8C 9C", "2 discard JS QS 6D 7D", "3 discard 6H 7H 8H 9H")
    act(state, "0 discard 6S 7S 8S TD")
    assert state.tricks_done[-1].winner == 1


# --- F11–F13 ----------------------------------------------------------------------------------------------


def test_F11_drawing_one_card_at_a_time_from_the_winner_clockwise() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AC KC QC JC 6D 7D 8D 9D ... @ 8")
    act(state, "0 lead 6S 7S", "1 beat KS AS", "2 discard 6C 7C", "3 discard 6H 7H")
    assert state.tricks_done[-1].winner == 1
    assert Card.parse("AC") in state.hands[1] and Card.parse("6D") in state.hands[1]
    assert Card.parse("KC") in state.hands[2] and Card.parse("7D") in state.hands[2]
    assert Card.parse("QC") in state.hands[3] and Card.parse("8D") in state.hands[3]
    assert Card.parse("JC") in state.hands[0] and Card.parse("9D") in state.hands[0]
    assert [len(h) for h in state.hands] == [4, 4, 4, 4] and len(state.stock) == 12


def test_F12_the_winner_leads_the_next_trick() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AD ... @ 0")
    act(state, "0 lead 8S", "1 beat AS", "2 discard 6C", "3 discard 6H")
    assert state.to_move == 1 and state.trick_leader == 1
    assert all(a.kind is Kind.LEAD for a in state.legal_actions(1))


def test_F13_the_deal_ends_when_stock_and_hands_are_empty() -> None:
    state = deal(TWO_MOLODKAS)
    while not state.deals:
        mover = state.to_move
        assert mover is not None
        assert any(state.hands) and len(state.hands[mover]) > 0  # cards remain: the deal goes on
        state.apply(next(a for a in state.legal_actions(mover) if a.kind is not Kind.MOLODKA))
        if not state.trick and state.stock:
            assert all(len(h) == 4 for h in state.hands)  # F11: refilled while the stock lasts
    result = state.deals[0]
    assert sum(result.points) == 120
    assert sum(result.tricks) == 9  # single-card leads: 36 cards, 4 a trick


# --- F14–F16 ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("points", "tricks", "expected"),
    [(59, 3, 2), (31, 1, 2), (30, 2, 4), (0, 1, 4), (0, 0, 6)],
)
def test_F14_defeat_points(points: int, tricks: int, expected: int) -> None:
    assert defeat_points(points, tricks) == expected


def finish_with_piles(state: FourCardState, team0: int, tricks: tuple[int, int]) -> None:
    """Put the whole deck in the two piles so that team 0 has ``team0`` card points, then score."""
    pile0: list[Card] = []
    rest = sorted(DECK, key=lambda c: -POINTS[c])
    for card in list(rest):
        if card_points(pile0) + POINTS[card] <= team0 and POINTS[card]:
            pile0.append(card)
            rest.remove(card)
    assert card_points(pile0) == team0
    state.piles = [pile0, rest]
    state.hands = [[], [], [], []]
    state.stock = []
    state.tricks_taken = list(tricks)
    state.tricks_done = [TrickRecord((), 1 if tricks[0] == 0 else 0)]
    state._score_deal()


def test_F14_deal_score_through_the_engine() -> None:
    state = deal(TWO_MOLODKAS)
    finish_with_piles(state, 70, (5, 4))
    assert state.deals[0].points == (70, 50) and state.deals[0].score == (0, 2)
    finish_with_piles(state, 21, (1, 8))
    assert state.deals[1].score == (4, 0)
    finish_with_piles(state, 120, (9, 0))
    assert state.deals[2].score == (0, 6)
    assert state.totals == [4, 8]


def test_F14_defeat_points_count_against_the_side_that_gets_them() -> None:
    """F14: defeat points are bad to have, so the deal in which team 1 got 2 of them is worth more than its
    card points to team 0, and its series margin is +2 for team 0 (the arena's series figure)."""
    state = deal(TWO_MOLODKAS)
    finish_with_piles(state, 70, (5, 4))
    result = state.deals[0]
    assert FourCardState.series_margin(result, 0) == 2 and FourCardState.series_margin(result, 1) == -2
    assert FourCardState.deal_value(result, 0) == 20 + 15 * 2 and FourCardState.deal_value(result, 3) == -50


def test_F14_eggs_at_60_60_give_no_defeat_points_and_are_recorded() -> None:
    state = deal(TWO_MOLODKAS)
    finish_with_piles(state, 60, (4, 5))
    result = state.deals[0]
    assert result.eggs and result.score == (0, 0) and "eggs" in result.events
    assert state.view(None).eggs_pending == 1


def test_F15_series_to_12_defeat_points_goats_with_eggs() -> None:
    state = deal(TWO_MOLODKAS)
    finish_with_piles(state, 60, (4, 5))  # eggs
    finish_with_piles(state, 0, (0, 9))  # team 0: 6
    assert state.outcome is None
    finish_with_piles(state, 10, (1, 8))  # team 0: 4 → 10
    assert state.outcome is None
    finish_with_piles(state, 40, (3, 6))  # team 0: 2 → 12, the goats
    assert state.outcome is not None
    assert state.outcome.losers == (0, 2) and state.outcome.winners == (1, 3)
    assert state.outcome.with_eggs
    assert state.totals == [12, 0]
    assert state.all_legal_actions() == []


def test_F15_goats_without_eggs() -> None:
    state = deal(TWO_MOLODKAS)
    finish_with_piles(state, 120, (9, 0))
    finish_with_piles(state, 120, (9, 0))
    assert state.outcome is not None and state.outcome.losers == (1, 3) and not state.outcome.with_eggs


def test_F16_random_first_dealer_left_of_him_leads_then_last_trick_winner() -> None:
    dealers = set()
    for seed in range(20):
        state = VARIANT.new_game(seed)
        dealers.add(state.dealer)
        assert state.to_move == (state.dealer + 1) % 4
    assert dealers == {0, 1, 2, 3}
    state = VARIANT.new_game(5)
    first_dealer = state.dealer
    play_deal(state)
    assert state.dealer == (first_dealer + 1) % 4  # the deal passes clockwise
    assert state.to_move == state.leader == state.deals[0].last_trick_winner


def test_F16_next_deal_led_by_the_last_tricks_winner_whoever_deals() -> None:
    state = deal(TWO_MOLODKAS, dealer=3)
    # Play the first deal by a fixed rule and remember who took its last trick.
    while not state.deals:
        mover = state.to_move
        assert mover is not None
        state.apply(next(a for a in state.legal_actions(mover) if a.kind is not Kind.MOLODKA))
    last = state.deals[0].last_trick_winner
    assert last is not None
    assert state.dealer == 0
    assert state.leader == last and state.to_move == last


# --- pinned claims: each test below fails when one sentence of the rule book is broken -------------------


def test_F1_each_trick_goes_to_the_pile_of_the_winners_team() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AD ... @ 0")
    act(state, "0 lead 6S", "1 discard 9C", "2 beat JS", "3 discard 6H")  # seat 2 wins: team A (0 and 2)
    assert state.tricks_done[-1].winner == 2
    assert state.tricks_taken == [1, 0] and sorted(state.piles[0]) == sorted(cards("6S 9C JS 6H"))
    assert state.piles[1] == []


def test_F1_a_trick_won_by_seat_1_goes_to_team_B() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AD ... @ 0")
    act(state, "0 lead 6S", "1 beat AS", "2 discard 6C", "3 discard 6H")
    assert state.tricks_done[-1].winner == 1
    assert state.tricks_taken == [0, 1] and sorted(state.piles[1]) == sorted(cards("6S AS 6C 6H"))
    assert state.piles[0] == []


def test_F5_the_trump_card_lies_anywhere_but_the_first_four_and_last_four_of_the_stock() -> None:
    """Decided: "the middle" of the 20-card stock is places 5 to 16 (indexes 4 to 15), all of them used."""
    indexes = set()
    for seed in range(400):
        state = VARIANT.new_game(seed)
        assert isinstance(state, FourCardState) and state.trump_card is not None
        indexes.add(state.stock.index(state.trump_card))
    assert indexes == set(range(4, 16))


def test_F5_the_trump_card_keeps_its_place_in_the_stock_and_is_drawn_in_turn() -> None:
    # The shown card is the 10th of the stock: it is drawn in the third round of drawing, not last.
    state = deal("6S 7S 8S 9S | 6C 7C 8C TD | JS QS 6D 7D | 6H 7H 8H KH / TS JC QC KC AS 9C TC AC 8D AD ... @ 9")
    assert state.trump is Suit.DIAMONDS and state.trump_card == Card.parse("AD")
    assert state.view(None).stock_trump_index == 9
    act(state, "0 lead 6S 7S 8S", "1 discard 6C 7C 8C", "2 discard JS QS 6D", "3 discard 6H 7H 8H")
    # Seat 0 led and nobody beat: he draws first; 12 cards are drawn in turn 0 1 2 3 0 1 2 3 0 1 2 3.
    assert state.hands[0] == sorted(cards("9S TS AS 8D"))
    assert state.hands[1] == sorted(cards("TD JC 9C AD"))
    assert state.trump_card_holder == 1 and len(state.stock) == 8


def test_F6_a_plain_card_never_beats_a_trump_whatever_its_rank() -> None:
    c = Card.parse
    assert not beats(c("AS"), c("6H"), trump=Suit.HEARTS)
    assert not beats(c("TS"), c("JH"), trump=Suit.HEARTS)
    assert beats(c("6H"), c("TS"), trump=Suit.HEARTS)


def test_F8_the_beat_may_pair_its_cards_in_any_order() -> None:
    # Lead J♥ 10♥; K♥ A♥ beat them only as K♥ on J♥ and A♥ on 10♥ (the ten ranks above the king).
    state = deal("JH TH 6S 7S | KH AH 6C 7C | 8S 9S 8C 9C | 6D 7D 8D 9D / AS ... @ 0")
    act(state, "0 lead JH TH")
    assert "1 beat KH AH" in legal_texts(state, 1)
    act(state, "1 beat KH AH", "2 discard 8S 9S", "3 discard 6D 7D")
    assert state.tricks_done[-1].winner == 1


def test_F8_a_trump_and_a_low_card_of_the_led_suit_beat_a_high_and_a_low_card() -> None:
    # Lead 6♥ K♥, trump ♠: the 7♥ must take the 6♥ and the 6♠ the K♥.
    state = deal("6H KH 8C 9C | 6S 7H 6C 7C | 8S 9S 6D 7D | 8H 9H 8D 9D / AS ... @ 0")
    act(state, "0 lead 6H KH")
    assert state.trump is Suit.SPADES
    assert "1 beat 6S 7H" in legal_texts(state, 1)


def test_F8_two_beating_cards_cannot_both_beat_the_same_card() -> None:
    # Lead 6♠ A♠ with no trump in the answer: 7♠ 8♠ both beat the 6♠, neither beats the A♠.
    state = deal("6S AS 6C 7C | 7S 8S 8C 9C | 9S TS 6D 7D | 6H 7H 8H 9H / AD ... @ 0")
    act(state, "0 lead 6S AS")
    assert not any(a.kind is Kind.BEAT for a in state.legal_actions(1))
    assert legal_texts(state, 1) >= {"1 discard 7S 8S"}


def test_F10_replacements_of_an_unanswered_molodka_may_follow_one_another() -> None:
    """Decided: seat 3's molodka is replaced by seat 2's, which is replaced by seat 1's (each nearer)."""
    state = deal("6S 7S 8S JC | 6C 7C 8C 9C | 6D 7D 8D 9D | 6H 7H 8H 9H / AS ... @ 0")
    act(state, "3 molodka 6H 7H 8H 9H")
    assert "2 molodka 6D 7D 8D 9D" in legal_texts(state, 2)
    act(state, "2 molodka 6D 7D 8D 9D")
    assert state.hands[3] == cards("6H 7H 8H 9H")
    assert "1 molodka 6C 7C 8C 9C" in legal_texts(state, 1)
    act(state, "1 molodka 6C 7C 8C 9C")
    assert state.hands[2] == cards("6D 7D 8D 9D") and state.to_move == 2
    assert not any(a.kind is Kind.MOLODKA for s in (2, 3) for a in state.legal_actions(s))


def test_F12_F9_after_a_beat_the_beater_leads_and_the_stock_refills_from_him() -> None:
    state = deal("6S 7S 8S TD | KS AS 9C 9H | QS JS 6C 7C | 6H 7H 8H KH / AC KC QC JC 6D 7D 8D 9D ... @ 8")
    act(state, "0 lead 8S", "1 discard 9C", "2 beat QS", "3 discard 6H")
    assert state.tricks_done[-1].winner == 2 and state.to_move == 2 and state.trick_leader == 2
    assert Card.parse("AC") in state.hands[2] and Card.parse("KC") in state.hands[3]


def finish_with(state: FourCardState, pile0: str, tricks: tuple[int, int], last: int = 0) -> None:
    """Score the deal with team A's pile written out (team B has every other card) and the last trick
    recorded as won by ``last`` (white-box, for the scoring rules)."""
    mine = cards(pile0)
    state.piles = [mine, [c for c in DECK if c not in mine]]
    state.hands = [[], [], [], []]
    state.stock = []
    state.tricks_taken = list(tricks)
    state.tricks_done = [TrickRecord((), last)]
    state._score_deal()


def test_F14_loser_with_exactly_31_30_and_59_through_the_engine() -> None:
    state = deal(TWO_MOLODKAS)
    finish_with(state, "AS AC KS QS JS", (2, 7))  # 11 + 11 + 4 + 3 + 2
    assert state.deals[-1].points == (31, 89) and state.deals[-1].score == (2, 0)
    finish_with(state, "AS AC KS KC", (2, 7))  # 30 card points and two tricks
    assert state.deals[-1].points == (30, 90) and state.deals[-1].score == (4, 0)
    finish_with(state, "AS AC AD TS TC KS JS", (4, 5))  # 59
    assert state.deals[-1].points == (59, 61) and state.deals[-1].score == (2, 0)
    finish_with(state, "AS AC AD AH TS KS QS", (4, 5))  # 61: team B has 59
    assert state.deals[-1].points == (61, 59) and state.deals[-1].score == (0, 2)
    assert state.totals == [8, 2]


def test_F14_a_loser_with_no_card_points_but_a_trick_gets_4() -> None:
    state = deal(TWO_MOLODKAS)
    finish_with(state, "6S 7S 8S 9S", (1, 8))
    assert state.deals[-1].points == (0, 120) and state.deals[-1].score == (4, 0)
    finish_with(state, " ".join(c.ascii for c in DECK), (9, 0))
    assert state.deals[-1].score == (0, 6)


def test_F16_the_next_deal_is_led_by_the_last_winner_not_left_of_the_dealer() -> None:
    state = deal(TWO_MOLODKAS, dealer=3)
    finish_with(state, "AS AC AD AH TS TC", (5, 4), last=2)
    assert state.dealer == 0 and state.leader == 2 and state.to_move == 2
    finish_with(state, "AS AC AD AH TS TC", (5, 4), last=3)
    assert state.dealer == 1 and state.leader == 3 and state.to_move == 3


def test_F4_every_deal_is_a_new_shuffle() -> None:
    state = VARIANT.new_game(7)
    assert isinstance(state, FourCardState)
    first = (sorted(state.stock), state.trump_card)
    play_deal(state)
    assert state.deal_no == 1
    assert (sorted(state.stock), state.trump_card) != first


def test_F1_the_goats_are_both_partners_of_one_team() -> None:
    state = deal(TWO_MOLODKAS)
    everything = " ".join(c.ascii for c in DECK)
    finish_with(state, everything, (9, 0))  # team B: 6
    finish_with(state, everything, (9, 0))  # team B: 12, the goats
    assert state.outcome is not None
    assert state.outcome.losers == (1, 3) and state.outcome.winners == (0, 2)


def test_F1_the_registry_seats_four_players_partners_opposite_in_two_teams() -> None:
    """F1: four players, two teams of partners."""
    variant = find_variant("four_card")
    assert variant.players == (4,) and variant.teams


def test_F1_the_number_of_players_is_not_an_option() -> None:
    with pytest.raises(OptionsError, match="players"):
        find_variant("four_card").options({"players": 3})
