"""Classic Kozel, scenario tests per rule C1–C14 on stacked decks (both deck sizes, every option value).

Layouts list the four hands, seat 0 first.  In the first deal the holder of the A♦ leads (C8).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Action, Card, IllegalActionError, Kind, TrickRecord, find_variant, parse_cards
from engine.classic import (
    DECK_32,
    DECK_36,
    POINTS,
    POWER,
    TRUMP_ORDER,
    ClassicState,
    card_points,
    is_trump,
    pairs_for,
    trick_winner,
)
from tests.helpers import act, check_invariants, legal_texts, play_deal

VARIANT = find_variant("classic")

# Seat 0 holds the A♦ and only 11 card points; seat 1 holds only trumps.
FIRST = (
    "AD 6D 7D 8D 9S 8S 7S 6S 6H | 6C QC QS QH QD JC JS JH JD | 7C 8C 9C KC TC AC KD TD 9D | AS TS KS AH TH KH 9H 8H 7H"
)
# For a later deal: seat 0 holds exactly one trump (the 7♣); his partner holds plain cards.
LATER = (
    "7C AD 6D 7D 8D 9S 8S 7S 6S | 6C QC QS QH QD JC JS JH 7H | 8C 9C KC TC AC KD TD 9D JD | AS TS KS AH TH KH 9H 8H 6H"
)
# The Q♣ (seat 1) and the 6♣ (seat 2) can meet in the first trick: neither holds a plain diamond.
QUEEN_HUNT = (
    "AD 6D 7D 8D 9S 8S 7S 6S 6H | QC QS QH QD JC JS JH JD 7C | 6C 8C 9C KC TC AC AS TS KS | KD TD 9D AH TH KH 9H 8H 7H"
)
# The same, but the 6♣ sits with seat 3, the Q♣'s partner.
PARTNERS_HUNT = (
    "AD 6D 7D 8D 9S 8S 7S 6S 6H | QC QS QH QD JC JS JH JD 7C | KD TD 9D 8C 9C KC TC AC AS | 6C TS KS AH TH KH 9H 8H 7H"
)


def deal(*layouts: str, dealer: int = 3, **options: object) -> ClassicState:
    state = VARIANT.new_game(1, options, stacked=list(layouts), dealer=dealer)
    assert isinstance(state, ClassicState)
    return state


def to_second_deal(**options: Any) -> ClassicState:
    state = deal(FIRST, LATER, **options)
    play_deal(state)
    assert state.deal_no == 1
    return state


def test_C1_four_players_teams_0_2_against_1_3() -> None:
    state = deal(FIRST)
    assert state.num_players == 4 and [state.team(s) for s in range(4)] == [0, 1, 0, 1]


def test_C2_deck_36_deals_9_each_deck_32_deals_8_without_sixes() -> None:
    state = VARIANT.new_game(3)
    assert [len(h) for h in state.hands] == [9, 9, 9, 9]
    state32 = VARIANT.new_game(3, {"deck": 32})
    assert [len(h) for h in state32.hands] == [8, 8, 8, 8]
    assert all(c.rank != 6 for h in state32.hands for c in h)
    assert len(DECK_36) == 36 and len(DECK_32) == 32


def test_C3_trumps_jacks_queens_clubs_in_order_with_the_six_of_clubs_on_top() -> None:
    assert len(TRUMP_ORDER) == 15
    assert sorted(TRUMP_ORDER, key=lambda c: POWER[c]) == list(TRUMP_ORDER)
    assert TRUMP_ORDER[-1] == Card.parse("6C") and TRUMP_ORDER[-2] == Card.parse("QC")
    assert {c for c in DECK_36 if is_trump(c)} == set(TRUMP_ORDER)
    assert min(POWER[c] for c in TRUMP_ORDER) > max(POWER[c] for c in DECK_36 if not is_trump(c))
    # 32 cards: the Q♣ is the highest trump there
    assert max((c for c in DECK_32 if is_trump(c)), key=lambda c: POWER[c]) == Card.parse("QC")


def test_C4_plain_order_and_jacks_queens_never_follow_their_printed_suit() -> None:
    order = parse_cards("6S 7S 8S 9S KS TS AS")
    assert sorted(order, key=lambda c: POWER[c]) == list(order)
    state = deal(FIRST)
    act(state, "0 play AD")
    # Seat 1 holds the J♦ and Q♦ but no plain diamond: they do not follow, he may play any card.
    assert len(state.legal_actions(1)) == 9
    act(state, "1 play JD")
    # Seat 2 holds plain diamonds: he must follow with one of them.
    assert legal_texts(state, 2) == {"2 play KD", "2 play TD", "2 play 9D"}


def test_C5_card_points() -> None:
    assert card_points(DECK_36) == 120 == card_points(DECK_32)
    assert [POINTS[c] for c in parse_cards("AH TH KH QH JH 9H")] == [11, 10, 4, 3, 2, 0]


def test_C6_redeal_for_13_points_or_fewer_before_the_first_lead() -> None:
    state = deal(FIRST)
    assert "0 redeal" in legal_texts(state, 0)  # 11 card points
    assert "1 redeal" not in legal_texts(state, 1)  # 20 card points
    dealer = state.dealer
    act(state, "0 redeal")
    assert state.attempt == 1 and state.dealer == dealer and state.deal_no == 0
    assert [len(h) for h in state.hands] == [9, 9, 9, 9]
    check_invariants(state)


def test_C6_no_redeal_after_the_first_lead_or_when_the_option_is_off() -> None:
    state = deal(FIRST)
    act(state, "0 play AD")
    assert "0 redeal" not in legal_texts(state, 0)
    off = deal(FIRST, redeal=False)
    assert "0 redeal" not in legal_texts(off, 0)


def test_C7_going_out_of_trumps_not_in_the_first_deal() -> None:
    state = deal(LATER)
    assert not any(a.kind is Kind.EXCHANGE for a in state.all_legal_actions())


def test_C7_going_out_of_trumps_the_partner_chooses_the_card_back() -> None:
    state = to_second_deal()
    assert "0 exchange 7C" in legal_texts(state, 0)
    act(state, "0 exchange 7C")
    assert state.to_move == 2
    assert legal_texts(state, 2) == {"2 giveback KD", "2 giveback TD", "2 giveback 9D"}
    assert state.legal_actions(1) == () and state.legal_actions(0) == ()  # everybody waits for the card back
    act(state, "2 giveback 9D")
    assert Card.parse("9D") in state.hands[0] and Card.parse("7C") in state.hands[2]
    assert state.to_move == state.leader == 1
    # Everybody is told who went out of trumps, not which cards moved.
    for seat in (None, 1, 3):
        log = state.view(seat).deal_log
        assert [(p.seat, p.kind, p.cards, p.count) for p in log] == [
            (0, Kind.EXCHANGE, (), 1),
            (2, Kind.GIVE_BACK, (), 1),
        ]
    assert state.view(0).exchange == (Card.parse("7C"), Card.parse("9D"))
    assert state.view(2).exchange == (Card.parse("7C"), Card.parse("9D"))
    assert state.view(1).exchange is None
    check_invariants(state)


def test_C7_once_per_team_and_only_with_exactly_one_trump() -> None:
    state = to_second_deal()
    act(state, "0 exchange 7C", "2 giveback 9D")
    assert not any(a.kind is Kind.EXCHANGE for a in state.legal_actions(0) + state.legal_actions(2))
    assert not any(a.kind is Kind.EXCHANGE for a in state.legal_actions(1))  # nine trumps
    act(state, "1 play 6C")
    assert not any(a.kind is Kind.EXCHANGE for a in state.all_legal_actions())  # after the first lead


def test_C8_first_deal_the_holder_of_the_ace_of_diamonds_leads_it() -> None:
    state = deal(FIRST, dealer=2)
    assert state.to_move == 0
    assert [a for a in state.legal_actions(0) if a.kind is Kind.PLAY] == [Action.parse("0 play AD")]


def test_C8_later_deals_first_lead_passes_left_and_the_dealer_is_right_of_the_leader() -> None:
    state = to_second_deal()
    assert state.leader == 1 and state.to_move == 1 and state.dealer == 0
    play_deal(state)
    assert state.leader == 2 and state.dealer == 1


def test_C9_nobody_leads_a_trump_in_the_first_deal_unless_holding_only_trumps() -> None:
    state = deal(FIRST)
    act(state, "0 play AD", "1 play JD", "2 play 9D", "3 play 7H")
    assert state.tricks_done[-1].winner == 1  # the J♦ is a trump
    assert all(is_trump(a.cards[0]) for a in state.legal_actions(1))  # only trumps: he may lead one
    act(state, "1 play JH", "2 play 7C", "3 play 8H", "0 play 6H")
    assert state.tricks_done[-1].winner == 1


def test_C9_later_deals_the_previous_first_leaders_team_may_not_lead_trumps() -> None:
    state = to_second_deal()
    assert state.banned == [0, 2]  # seat 0 led first in deal 0
    assert len([a for a in state.legal_actions(1) if a.kind is Kind.PLAY]) == 9  # not banned: any card
    # seat 1 leads, seat 2 wins the trick and must then lead a plain card although he holds trumps
    act(state, "1 play 7H", "2 play AC", "3 play 6H", "0 play 6S")
    assert state.tricks_done[-1].winner == 2
    plays = state.legal_actions(2)
    assert plays and all(not is_trump(a.cards[0]) for a in plays)
    with pytest.raises(IllegalActionError):
        act(state, "2 play KC")


def test_C10_following_suit_or_trumps() -> None:
    state = deal(FIRST)
    act(state, "0 play AD", "1 play JD", "2 play 9D", "3 play 7H", "1 play JH")
    assert {a.cards[0] for a in state.legal_actions(2)} == set(parse_cards("7C 8C 9C KC TC AC"))  # trump led
    act(state, "2 play 7C")
    assert len(state.legal_actions(3)) == 8  # no trump: any card


def test_C11_highest_trump_else_highest_of_the_led_suit() -> None:
    def plays(text: str) -> tuple[Action, ...]:
        return tuple(Action.parse(f"{i} play {c}") for i, c in enumerate(text.split()))

    assert trick_winner(plays("9H AH TS 7H")) == 1  # the A♥ is highest of the led suit
    assert trick_winner(plays("9H AH JD 7H")) == 2  # the J♦ is a trump
    assert trick_winner(plays("9H 7C JD 6C")) == 3  # the 6♣ is the highest trump
    assert trick_winner(plays("9H QC JS TC")) == 1
    assert trick_winner(plays("9H AS AD 8H")) == 0  # aces of other suits do not beat


def test_C12_catching_the_queen_stops_the_deal() -> None:
    state = deal(QUEEN_HUNT, FIRST)
    act(state, "0 play AD", "1 play QC", "2 play 6C")
    result = state.deals[0]
    assert "queen_caught" in result.events
    assert result.score == (4, 0) and result.points == (0, 0)
    assert state.deal_no == 1 and state.trick == []  # the next deal has begun at once


def test_C12_no_catch_between_partners() -> None:
    state = deal(PARTNERS_HUNT)
    act(state, "0 play AD", "1 play QC", "2 play KD", "3 play 6C")
    assert not state.deals
    assert state.tricks_done[-1].winner == 3  # the 6♣ is the highest trump


def test_C12_no_six_of_clubs_in_the_32_card_deck() -> None:
    state = VARIANT.new_game(9, {"deck": 32})
    assert Card.parse("6C") not in {c for h in state.hands for c in h}


def score_with(state: ClassicState, team0_points: int, tricks: tuple[int, int]) -> None:
    """Finish the deal with the given card points and tricks (white-box, for the scoring rules)."""
    deck = sorted(state.deck, key=lambda c: -POINTS[c])
    pile0: list[Card] = []
    for card in deck:
        if POINTS[card] and card_points(pile0) + POINTS[card] <= team0_points:
            pile0.append(card)
    assert card_points(pile0) == team0_points
    state.piles = [pile0, [c for c in deck if c not in pile0]]
    state.hands = [[], [], [], []]
    state.tricks_taken = list(tricks)
    state.tricks_done = [TrickRecord((), 0)]
    state._score_deal()


@pytest.mark.parametrize(("points", "pairs"), [(60, 0), (61, 2), (90, 2), (91, 4), (119, 4)])
def test_C13_pairs(points: int, pairs: int) -> None:
    assert pairs_for(points) == pairs


def test_C13_deal_score_and_eggs_that_add_up() -> None:
    state = deal(FIRST)
    score_with(state, 70, (5, 4))
    assert state.deals[-1].score == (2, 0)
    score_with(state, 60, (4, 5))
    score_with(state, 60, (5, 4))
    assert state.deals[-1].eggs and state.view(None).eggs_pending == 2
    score_with(state, 21, (2, 7))  # team 1 has 99: two pairs, plus one pair per eggs deal
    assert state.deals[-1].score == (0, 8)
    assert "egg_bonus:4" in state.deals[-1].events
    assert state.totals == [2, 8] and state.view(None).eggs_pending == 0


def test_C13_eggs_go_to_a_queen_catch_too() -> None:
    state = deal(QUEEN_HUNT)
    state.eggs_pending = 1
    act(state, "0 play AD", "1 play QC", "2 play 6C")
    assert state.deals[0].score == (6, 0)


def test_C13_every_trick_scores_4_and_the_others_drop_to_0() -> None:
    state = deal(FIRST)
    score_with(state, 0, (0, 9))
    score_with(state, 10, (1, 8))  # team 1: 2 + 4 = 6
    assert state.totals == [0, 8]
    score_with(state, 120, (9, 0))
    assert state.deals[-1].score == (4, 0) and "reset" in state.deals[-1].events
    assert state.totals == [4, 0]


def test_C13_option_the_team_without_a_trick_loses_the_series() -> None:
    state = deal(FIRST, all_tricks="lose_series")
    score_with(state, 120, (9, 0))
    assert state.outcome is not None
    assert state.outcome.reason == "no_trick" and state.outcome.losers == (1, 3)


def test_C14_first_to_12_wins_the_others_are_the_goats() -> None:
    state = deal(FIRST)
    for _ in range(2):
        score_with(state, 100, (6, 3))
    assert state.totals == [8, 0] and state.outcome is None
    score_with(state, 95, (6, 3))
    assert state.outcome is not None
    assert state.outcome.winners == (0, 2) and state.outcome.losers == (1, 3)
    assert state.outcome.reason == "series_points"


@pytest.mark.parametrize("deck", [36, 32])
def test_C_full_deal_on_both_decks(deck: int) -> None:
    state = VARIANT.new_game(77, {"deck": deck, "redeal": False})
    play_deal(state)
    result = state.deals[0]
    assert sum(result.points) == 120 or "queen_caught" in result.events
    assert sum(result.tricks) in (deck // 4, *range(deck // 4))
