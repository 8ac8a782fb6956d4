"""Classic Kozel, scenario tests per rule C1–C14 on stacked decks (both deck sizes, every option value).

Layouts list the four hands, seat 0 first.  In the first deal the holder of the A♦ leads (C8).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine import Action, Card, IllegalActionError, Kind, OptionsError, TrickRecord, find_variant, parse_cards
from engine.games.classic.rules import (
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
    if "queen_caught" in result.events:
        assert result.points == (0, 0) and sum(result.tricks) < deck // 4
    else:
        assert sum(result.tricks) == deck // 4  # every card played, four to a trick


# --- pinned claims: each test below fails when one sentence of the rule book is broken -------------------

# A first deal: seat 2 holds no diamond, trumps the A♦ and must then lead a plain card (C9).
FIRST_BAN = (
    "AD KD TD 9S 8S 7S 6S 6H 7H | 9D 8D 7D 6D JC JS QH QD 8H | 7C 8C 9C KC TC AC AS TS KS | 6C QC QS JD JH AH TH KH 9H"
)
# A first deal where seat 0 takes 21 card points in the first trick before the Q♣ and 6♣ meet in the second.
CATCH_LATER = (
    "AD KD 6S 7S 8S 9S TS AS 6H | TD QC QS QH QD JC JS JH JD | 9D 6C 7C 8C 9C KC TC AC 7H | KS 8H 9H KH TH AH 8D 7D 6D"
)
# Later deals.  ONE_EACH: seats 0 and 1 (of different teams) hold one trump each.
ONE_EACH = (
    "7C AS TS KS 9S 8S 7S 6S AH | 8C TH KH 9H 8H 7H 6H AD TD | 9C KC TC AC 6C JD JH KD 9D | JS JC QD QH QS QC 8D 7D 6D"
)
# SECOND_TRUMP: seat 0 holds one trump and seat 2 none, so after the exchange seat 2 holds exactly one.
SECOND_TRUMP = (
    "7C AS TS KS 9S 8S 7S 6S AH | 8C 9C KC TC AC 6C JD JH 9D | TH KH 9H 8H 7H 6H AD TD KD | JS JC QD QH QS QC 8D 7D 6D"
)
# ALL_TRUMPS_PARTNER: seat 0 holds one trump, his partner only trumps.
ALL_TRUMPS_PARTNER = (
    "7C AS TS KS 9S 8S 7S 6S AH | JC QD TH KH 9H 8H 7H 6H AD | 8C 9C KC TC AC 6C JD JH JS | QH QS QC TD KD 9D 8D 7D 6D"
)
# Seat 0 holds exactly 13 card points (A♦ 11, J♥ 2), seat 2 exactly 14 (A♠ 11, Q♥ 3).
THIRTEEN = (
    "AD JH 6D 7D 8D 9S 8S 7S 6S | 6C QC QS JS JC JD QD KD TD | AS QH 7C 8C 9C 6H 7H 8H 9D | KC TC AC KS TS 9H KH TH AH"
)


def plays(text: str) -> tuple[Action, ...]:
    return tuple(Action.parse(f"{i} play {c}") for i, c in enumerate(text.split()))


def test_C1_a_trick_taken_by_seat_1_goes_to_team_1_3() -> None:
    state = deal(FIRST)
    act(state, "0 play AD", "1 play JD", "2 play 9D", "3 play 7H")
    assert state.tricks_done[-1].winner == 1
    assert state.tricks_taken == [0, 1] and sorted(state.piles[1]) == sorted(parse_cards("AD JD 9D 7H"))
    assert state.piles[0] == []


def test_C3_each_trump_beats_the_one_below_it_in_the_written_order() -> None:
    order = [c.ascii for c in parse_cards("7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC 6C")]
    for low, high in itertools.pairwise(order):
        assert trick_winner(plays(f"7H {low} {high} 8H")) == 2, (low, high)
        assert trick_winner(plays(f"7H {high} {low} 8H")) == 1, (low, high)
        assert trick_winner(plays(f"{low} 8H {high} 9H")) == 2, (low, high)


def test_C3_the_six_of_clubs_beats_every_trump_and_the_queen_of_clubs_every_other() -> None:
    for trump in [c.ascii for c in parse_cards("7C AC JD JC QD QS")]:
        assert trick_winner(plays(f"{trump} 6C 7H 8H")) == 1
        assert trick_winner(plays(f"6C {trump} 7H 8H")) == 0
        assert trick_winner(plays(f"{trump} QC 7H 8H")) == 1


def test_C4_each_plain_card_beats_the_one_below_it_in_the_written_order() -> None:
    for suit, filler in (("S", "7H 8H"), ("H", "7S 8S"), ("D", "7S 8S")):
        order = [f"{r}{suit}" for r in "6789KTA"]
        for low, high in itertools.pairwise(order):
            assert trick_winner(plays(f"{low} {high} {filler}")) == 1, (low, high)
            assert trick_winner(plays(f"{high} {low} {filler}")) == 0, (low, high)


def test_C6_redeal_at_exactly_13_card_points_not_at_14() -> None:
    state = deal(THIRTEEN)
    assert card_points(state.hands[0]) == 13 and card_points(state.hands[2]) == 14
    assert "0 redeal" in legal_texts(state, 0)
    assert "2 redeal" not in legal_texts(state, 2)


def test_C6_redeals_in_a_row_are_unlimited() -> None:
    """Decided: no limit on redeals in a row; each deals new cards (the stacked layouts here)."""
    state = deal(FIRST, THIRTEEN, FIRST)
    act(state, "0 redeal")
    assert state.hands[0] == sorted(parse_cards("AD JH 6D 7D 8D 9S 8S 7S 6S"))
    act(state, "0 redeal")
    assert state.hands[0] == sorted(parse_cards(FIRST.split("|", maxsplit=1)[0]))
    assert state.attempt == 2 and state.deal_no == 0 and state.dealer == 3
    assert "0 redeal" in legal_texts(state, 0)


def test_C6_a_redeal_after_a_complete_exchange_judged_on_the_hand_as_it_is_then() -> None:
    """Decided: a redeal may follow a finished exchange; the points are those of the hand after it."""
    state = to_second_deal()
    assert card_points(state.hands[0]) == 11
    act(state, "0 exchange 7C")
    assert not any(a.kind is Kind.REDEAL for s in range(4) for a in state.legal_actions(s))  # card owed
    act(state, "2 giveback KD")  # seat 0 now holds 15 card points: no more redeal for him
    assert "0 redeal" not in legal_texts(state, 0)
    other = to_second_deal()
    act(other, "0 exchange 7C", "2 giveback 9D")  # 11 card points still: he may call a redeal
    assert "0 redeal" in legal_texts(other, 0)
    act(other, "0 redeal")
    assert other.attempt == 1 and other.exchanged == []


def second_deal(layout: str, dealer: int = 3) -> ClassicState:
    state = deal(FIRST, layout, dealer=dealer)
    play_deal(state)
    assert state.deal_no == 1 and state.leader == 1
    return state


def test_C7_each_team_may_go_out_of_trumps_once_in_a_deal() -> None:
    state = second_deal(ONE_EACH)
    assert {a.text() for a in state.all_legal_actions() if a.kind is Kind.EXCHANGE} == {"0 exchange 7C", "1 exchange 8C"}
    act(state, "0 exchange 7C", "2 giveback KD")
    assert "1 exchange 8C" in legal_texts(state, 1)  # the other team still may
    act(state, "1 exchange 8C", "3 giveback 8D")
    assert not any(a.kind is Kind.EXCHANGE for a in state.all_legal_actions())
    assert state.to_move == 1


def test_C7_at_most_one_exchange_per_team_even_when_the_partner_then_holds_one_trump() -> None:
    state = second_deal(SECOND_TRUMP)
    act(state, "0 exchange 7C", "2 giveback 6H")
    trumps = [c for c in state.hands[2] if is_trump(c)]
    assert trumps == [Card.parse("7C")]  # seat 2 now holds exactly one trump, his partner plain cards
    assert "2 exchange 7C" not in legal_texts(state, 2)
    assert not any(a.kind is Kind.EXCHANGE for a in state.all_legal_actions())


def test_C7_the_partner_must_hold_a_plain_card() -> None:
    state = second_deal(ALL_TRUMPS_PARTNER)
    assert [c for c in state.hands[0] if is_trump(c)] == [Card.parse("7C")]
    assert not any(a.kind is Kind.EXCHANGE for a in state.all_legal_actions())


def test_C7_C6_nothing_else_happens_while_the_card_is_owed_back() -> None:
    """Decided: no lead, no redeal and no other exchange before the partner gives a card back."""
    state = second_deal(ONE_EACH)
    act(state, "0 exchange 7C")
    assert [s for s in range(4) if state.legal_actions(s)] == [2]
    assert all(a.kind is Kind.GIVE_BACK for a in state.legal_actions(2))
    with pytest.raises(IllegalActionError):
        act(state, "1 exchange 8C")


def test_C8_the_dealer_of_a_later_deal_is_right_of_its_leader_whoever_dealt_before() -> None:
    state = deal(FIRST, LATER, dealer=1)  # seat 0 holds the A♦ and leads; seat 1 dealt
    assert state.to_move == 0
    play_deal(state)
    assert state.leader == 1 and state.dealer == 0 and state.to_move == 1


def test_C9_first_deal_a_player_with_plain_cards_may_not_lead_a_trump() -> None:
    state = deal(FIRST_BAN)
    act(state, "0 play AD", "1 play 6D")
    # C9: the ban is on leading only; void of diamonds, seat 2 may trump or play any plain card.
    assert legal_texts(state, 2) == {f"2 play {c.ascii}" for c in parse_cards("7C 8C 9C KC TC AC AS TS KS")}
    act(state, "2 play 7C", "3 play 9H")
    assert state.tricks_done[-1].winner == 2
    assert legal_texts(state, 2) == {"2 play AS", "2 play TS", "2 play KS"}


def test_C9_later_deals_the_other_team_may_lead_trumps() -> None:
    state = to_second_deal()
    assert {"1 play 6C", "1 play QC", "1 play 7H"} <= legal_texts(state, 1)


def test_C12_no_card_points_when_the_queen_is_caught_in_a_later_trick() -> None:
    state = deal(CATCH_LATER, FIRST)
    act(state, "0 play AD", "1 play TD", "2 play 9D", "3 play 8D")
    assert state.tricks_done[-1].winner == 0 and card_points(state.piles[0]) == 21
    act(state, "0 play 6S", "1 play QC", "2 play 6C")  # caught at the third card: the deal stops at once
    result = state.deals[0]
    assert result.events == ("queen_caught",)
    assert result.points == (0, 0) and result.score == (4, 0) and state.totals == [4, 0]
    assert state.deal_no == 1


def test_C13_deal_score_boundaries_through_the_engine() -> None:
    state = deal(FIRST)
    score_with(state, 61, (5, 4))
    assert state.deals[-1].score == (2, 0)
    score_with(state, 90, (5, 4))
    assert state.deals[-1].score == (2, 0)
    score_with(state, 91, (5, 4))
    assert state.deals[-1].score == (4, 0)
    score_with(state, 29, (3, 6))  # team 1: 91
    assert state.deals[-1].score == (0, 4)
    assert state.totals == [8, 4]


def test_C6_a_redeal_shuffles_new_cards_with_the_same_dealer() -> None:
    state = VARIANT.new_game(0)  # a seat of this shuffle holds 13 card points or fewer
    caller = next(a.seat for a in state.all_legal_actions() if a.kind is Kind.REDEAL)
    before = [list(h) for h in state.hands]
    dealer = state.dealer
    state.apply(Action(caller, Kind.REDEAL))
    assert state.dealer == dealer and state.deal_no == 0 and state.attempt == 1
    assert state.hands != before
    check_invariants(state)


def test_C11_the_winner_of_a_trick_leads_the_next() -> None:
    state = deal(FIRST)
    act(state, "0 play AD", "1 play JD", "2 play 9D", "3 play 7H")  # the J♦ trumps the A♦
    assert state.tricks_done[-1].winner == 1 and state.to_move == 1
    assert [s for s in range(4) if state.legal_actions(s)] == [1]
    act(state, "1 play JH", "2 play 7C", "3 play 8H", "0 play 6H")
    assert state.tricks_done[-1].winner == 1 and state.to_move == 1


def test_X1_C7_only_the_two_partners_see_the_exchanged_cards() -> None:
    state = to_second_deal()
    act(state, "0 exchange 7C", "2 giveback 9D")
    for seat in (None, 1, 3):
        view = state.view(seat)
        assert all(p.cards == () and p.count == 1 for p in view.deal_log)
        assert view.exchange is None
    for seat in (0, 2):
        assert [p.cards for p in state.view(seat).deal_log] == [parse_cards("7C"), parse_cards("9D")]
    check_invariants(state)


def test_C1_the_registry_seats_four_players_partners_opposite_in_two_teams() -> None:
    """C1: four players, two teams of partners."""
    variant = find_variant("classic")
    assert variant.players == (4,) and variant.teams


@pytest.mark.parametrize("deck", [40, 24])
def test_C2_a_deck_of_another_size_is_refused(deck: int) -> None:
    with pytest.raises(OptionsError, match="deck"):
        find_variant("classic").options({"deck": deck})
