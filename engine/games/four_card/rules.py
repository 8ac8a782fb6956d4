"""Four-card Kozel, yard rules: rules F1–F16 of its rules.md."""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import Any, ClassVar

from engine.actions import Action, Kind, one_card_actions
from engine.cards import RANKS_36, Card, Rank, Suit, full_deck
from engine.registry import check_layout
from engine.state import (
    DealResult,
    GameState,
    Layout,
    Options,
    Outcome,
    TrickRecord,
    deal_round_robin,
    shuffle,
)

DECK: tuple[Card, ...] = full_deck(RANKS_36)  # F2
HAND_SIZE = 4  # F4
STOCK_SIZE = len(DECK) - 4 * HAND_SIZE
SERIES_LIMIT = 12  # F15
_RANK_ORDER = (
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.TEN,
    Rank.ACE,
)
_RANK_POINTS = {Rank.JACK: 2, Rank.QUEEN: 3, Rank.KING: 4, Rank.TEN: 10, Rank.ACE: 11}  # F3, others 0

# Tables by card code, for the hot path.
ORDER: list[int] = [0] * 64
POINTS: list[int] = [0] * 64
for _card in DECK:
    ORDER[_card] = _RANK_ORDER.index(_card.rank)
    POINTS[_card] = _RANK_POINTS.get(_card.rank, 0)


def card_points(cards: list[Card] | tuple[Card, ...]) -> int:
    return sum(map(POINTS.__getitem__, cards))


def beats(x: Card, y: Card, trump: int) -> bool:
    """F6: X beats Y when they share a suit and X ranks higher, or X is trump and Y is not."""
    sx, sy = x >> 4, y >> 4
    if sx == sy:
        return ORDER[x] > ORDER[y]
    return sx == trump


# BEATEN_BY[trump][card]: the bit mask (bit = card code) of the cards that beat ``card`` (F6), from ``beats``.
BEATEN_BY: list[list[int]] = [[0] * 64 for _ in Suit]
for _trump in Suit:
    for _y in DECK:
        BEATEN_BY[_trump][_y] = sum(1 << _x for _x in DECK if beats(_x, _y, _trump))


def can_beat(cards: tuple[Card, ...], top: tuple[Card, ...], trump: int) -> bool:
    """F8: the cards can be paired one-to-one with the top's cards so that each beats its partner."""
    beaten_by = BEATEN_BY[trump]
    if len(cards) == 1:
        return beaten_by[top[0]] >> cards[0] & 1 == 1
    if len(cards) == 2:  # its two pairings, written out
        (x, z), m, n = cards, beaten_by[top[0]], beaten_by[top[1]]
        return (m >> x & n >> z | m >> z & n >> x) & 1 == 1
    masks = [beaten_by[y] for y in top]
    for perm in permutations(cards):  # plain loops: a generator per pairing costs more than the test
        for x, m in zip(perm, masks, strict=True):
            if not m >> x & 1:
                break
        else:
            return True
    return False


LEAD, BEAT, DISCARD, MOLODKA = Kind.LEAD, Kind.BEAT, Kind.DISCARD, Kind.MOLODKA

# One-card beats and discards, made once: the most frequent answers.
BEAT_ONE = one_card_actions(Kind.BEAT, 4)
DISCARD_ONE = one_card_actions(Kind.DISCARD, 4)
_PAIRS = [[(BEAT_ONE[seat][card], DISCARD_ONE[seat][card]) for card in range(64)] for seat in range(4)]
_SINGLES = [[(DISCARD_ONE[seat][card],) for card in range(64)] for seat in range(4)]
# ANSWERS_TO_ONE[seat][trump][top]: by card code, the answers of ``seat`` with that card to a one-card top,
# made when first needed (the codes that name no card are never looked up).
ANSWERS_TO_ONE: list[list[list[list[tuple[Action, ...]] | None]]] = [
    [[None] * 64 for _ in Suit] for _ in range(4)
]
# Two-card answers by seat and cards, the beat and the discard, made when first met: at most 4 × 630.
ANSWERS_TWO: list[dict[tuple[Card, ...], tuple[Action, Action]]] = [{} for _ in range(4)]


def _suit_leads(seat: int, cards: tuple[Card, ...]) -> tuple[Action, ...]:
    """The leads of ``seat`` from his cards of one suit: the molodka of four (F10), then 1 to 3 cards (F7)."""
    actions = []
    if len(cards) == 4:
        actions.append(Action(seat, Kind.MOLODKA, cards))
    for k in range(1, min(len(cards), 3) + 1):
        actions.extend(Action(seat, Kind.LEAD, combo) for combo in combinations(cards, k))
    return tuple(actions)


# The leads of a seat from a suit's cards, by seat, then cards: at most 4 × 4 × 255 entries.
_SUIT_LEADS: list[dict[tuple[Card, ...], tuple[Action, ...]]] = [{} for _ in range(4)]


def defeat_points(points: int, tricks: int) -> int:
    """F14: the losing team's defeat points."""
    if tricks == 0:
        return 6
    return 4 if points <= 30 else 2


class FourCardOptions(Options):
    """Four-card Kozel has no house options: F1–F16 are played as written."""


@dataclass(eq=True)
class FourCardState(GameState):
    VARIANT: ClassVar[str] = "four_card"
    TOTALS_AGAINST: ClassVar[bool] = True

    options: FourCardOptions = field(default_factory=FourCardOptions)
    stock: list[Card] = field(default_factory=list)  # top first
    trump: Suit = Suit.SPADES
    trump_card: Card | None = None
    trump_card_holder: int | None = None
    trump_card_place: int = -1  # where the shown card lay in the stock as dealt (F5), seen by everybody
    piles: list[list[Card]] = field(default_factory=list)
    trick_leader: int = 0  # the original leader of the current trick (F10)
    lead_seat: int = -1  # who made the current lead; -1 before the lead
    molodka: bool = False  # the current lead is a molodka
    top: int = -1  # index in ``trick`` of the current top
    answered: int = 0
    eggs: int = 0  # deals of this series that ended 60:60

    @classmethod
    def default_options(cls) -> FourCardOptions:
        return FourCardOptions()

    @classmethod
    def deck_for(cls, options: Options) -> tuple[Card, ...]:
        return DECK

    @classmethod
    def series_margin(cls, result: DealResult, seat: int) -> float:
        us, them = seat % 2, 1 - seat % 2  # F14: the score is defeat points, bad for whoever gets them
        return result.score[them] - result.score[us]

    # --- dealing ----------------------------------------------------------------------------------------

    def _start_series(self) -> None:
        self.leader = (self.dealer + 1) % 4  # F16

    def _make_layout(self, rng: random.Random) -> Layout:
        deck = list(DECK)
        shuffle(rng, deck)
        hands = deal_round_robin(deck, self.dealer, 4, HAND_SIZE)
        # F5: a card from the middle of the stock — not among its first or last four.
        return Layout(tuple(tuple(h) for h in hands), tuple(deck[16:]), rng.randrange(4, STOCK_SIZE - 4))

    def _check_layout(self, layout: Layout) -> None:
        check_layout(layout, DECK, [HAND_SIZE] * 4, STOCK_SIZE)

    def _begin_deal(self, layout: Layout) -> None:
        self.stock = list(layout.rest)
        self.trump_card = self.stock[layout.cut]  # F5: shown, and left in its place
        self.trump_card_place = layout.cut
        self.trump = self.trump_card.suit
        self.trump_card_holder = None
        self.piles = [[], []]
        self._new_trick(self.leader)

    def _new_trick(self, leader: int) -> None:
        self.trick = []
        self.trick_leader = leader
        self.to_move = leader
        self.lead_seat = -1
        self.molodka = False
        self.top = -1
        self.answered = 0

    def _next_deal_seats(self) -> None:
        self.dealer = (self.dealer + 1) % 4  # F16: the deal passes clockwise
        self.leader = self.tricks_done[-1].winner  # F16: the last trick's winner leads

    # --- legal actions ----------------------------------------------------------------------------------

    def _distance(self, seat: int) -> int:
        return (seat - self.trick_leader) % 4

    def _legal(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if seat == self.to_move:
            if self.lead_seat < 0:
                return self._leads(seat, hand)  # with the leader's own molodka among them
            actions = self._answers(seat, hand)
        else:
            actions = []
        # four cards of one suit (the first and the last share a suit when all four do), then F10's order
        if len(hand) == 4 and hand[0] >> 4 == hand[3] >> 4 and self._may_molodka(seat, hand):
            actions.append(Action(seat, MOLODKA, tuple(hand)))
        return actions

    def all_legal_actions(self) -> list[Action]:
        """``GameState.all_legal_actions`` with ``_others_may_act`` written out, for random play."""
        cache = self._cache
        mover = self.to_move
        if not cache and mover is not None and self.outcome is None:
            for hand in self.hands:
                if len(hand) == 4 and hand[0] >> 4 == hand[3] >> 4:
                    break  # a molodka out of turn may be possible: every seat is asked
            else:
                actions = self._legal(mover)
                cache[mover] = tuple(actions)
                return actions
        return super().all_legal_actions()

    def _others_may_act(self) -> bool:
        """Out of turn there is only the molodka (F10), and only a hand of four cards of one suit has one."""
        for hand in self.hands:  # noqa: SIM110 - a loop costs less than any() over a generator
            if len(hand) == 4 and hand[0] >> 4 == hand[3] >> 4:
                return True
        return False

    def _may_molodka(self, seat: int, hand: list[Card]) -> bool:
        """F10: four cards of one suit in hand; priority between two molodkas."""
        if len(hand) != 4 or not (hand[0] >> 4 == hand[1] >> 4 == hand[2] >> 4 == hand[3] >> 4):
            return False
        if not self.molodka:
            return True
        return self.answered == 0 and self._distance(seat) < self._distance(self.lead_seat)

    @staticmethod
    def _leads(seat: int, hand: list[Card]) -> list[Action]:
        """F7 (and F10 for the leader's own four cards of one suit), suit by suit.  A hand is kept sorted by
        card code, so each suit's cards lie together, in the order of the suits."""
        actions: list[Action] = []
        leads_of = _SUIT_LEADS[seat]
        start, end = 0, len(hand)
        while start < end:
            suit, stop = hand[start] >> 4, start + 1
            while stop < end and hand[stop] >> 4 == suit:
                stop += 1
            cards = tuple(hand[start:stop])  # the cards of one suit
            leads = leads_of.get(cards)
            if leads is None:
                leads = leads_of[cards] = _suit_leads(seat, cards)
            actions += leads
            start = stop
        return actions

    def _answers(self, seat: int, hand: list[Card]) -> list[Action]:
        """F8: beat the current top card by card, or discard as many cards face down."""
        top = self.trick[self.top].cards
        size = len(top)
        actions: list[Action] = []
        trump = self.trump
        if size == 1:  # the most frequent answer: each card's answers from a table
            row = ANSWERS_TO_ONE[seat][trump][top[0]]
            if row is None:  # the table's row for this top, made once (and whole before it is shared)
                beaten_by, pairs, singles = BEATEN_BY[trump][top[0]], _PAIRS[seat], _SINGLES[seat]
                row = [pairs[card] if beaten_by >> card & 1 else singles[card] for card in range(64)]
                ANSWERS_TO_ONE[seat][trump][top[0]] = row
            for card in hand:
                actions += row[card]
            return actions
        if size == 2:  # two-card answers: can_beat written out, the actions made once
            m, n = BEATEN_BY[trump][top[0]], BEATEN_BY[trump][top[1]]
            made = ANSWERS_TWO[seat]
            for combo in combinations(hand, size):
                x, z = combo
                answers = made.get(combo)
                if answers is None:
                    answers = made[combo] = (Action(seat, BEAT, combo), Action(seat, DISCARD, combo))
                if (m >> x & n >> z | m >> z & n >> x) & 1:  # either pairing of the cards beats
                    actions += answers
                else:
                    actions.append(answers[1])
            return actions
        for combo in combinations(hand, size):
            if can_beat(combo, top, trump):
                actions.append(Action(seat, BEAT, combo))
            actions.append(Action(seat, DISCARD, combo))
        return actions

    # --- applying ---------------------------------------------------------------------------------------

    def _play(self, action: Action) -> None:
        seat, kind, cards = action
        hand = self.hands[seat]
        if kind is MOLODKA:
            for play in self.trick:  # F10: the cards on the table go back to their hands
                for card in play.cards:
                    insort(self.hands[play.seat], card)
            for card in cards:
                hand.remove(card)
            self.trick = [action]
            self.lead_seat, self.molodka, self.top, self.answered = seat, True, 0, 0
        elif kind is LEAD:
            for card in cards:
                hand.remove(card)
            self.trick = [action]
            self.lead_seat, self.molodka, self.top, self.answered = seat, False, 0, 0
        else:
            for card in cards:
                hand.remove(card)
            trick = self.trick
            trick.append(action)
            if kind is BEAT:
                self.top = len(trick) - 1  # F8: the beat becomes the current top
            self.answered += 1
            if self.answered == 3:
                self._finish_trick()
                return
        self.to_move = (seat + 1) % 4

    def _finish_trick(self) -> None:
        trick = self.trick
        winner = trick[self.top].seat  # F9
        team = winner % 2
        pile = self.piles[team]
        for play in trick:
            pile += play.cards
        self.tricks_taken[team] += 1
        self.tricks_done.append(TrickRecord(tuple(trick), winner))
        if self.stock:
            self._draw(winner)
        if not self.hands[0]:  # F13: hands are equal, and the stock ran out before they emptied
            self._score_deal()
        else:
            self._new_trick(winner)  # F12

    def _draw(self, winner: int) -> None:
        """F11: one card at a time, from the winner clockwise, until each holds 4 or the stock is empty."""
        stock, hands, shown = self.stock, self.hands, self.trump_card
        while stock and len(hands[winner]) < HAND_SIZE:
            for i in range(4):
                seat = (winner + i) % 4
                card = stock.pop(0)
                if card == shown:
                    self.trump_card_holder = seat
                insort(hands[seat], card)

    def _score_deal(self) -> None:
        """F14–F16."""
        points = (card_points(self.piles[0]), card_points(self.piles[1]))
        tricks = tuple(self.tricks_taken)
        score = [0, 0]
        eggs = points[0] == points[1]
        if eggs:
            self.eggs += 1
        else:
            loser = 0 if points[0] < points[1] else 1
            score[loser] = defeat_points(points[loser], tricks[loser])
        totals = tuple(t + s for t, s in zip(self.totals, score, strict=True))
        result = DealResult(
            deal_no=self.deal_no,
            dealer=self.dealer,
            leader=self.leader,
            points=points,
            score=tuple(score),
            totals=totals,
            tricks=tricks,
            eggs=eggs,
            events=("eggs",) if eggs else (),
            last_trick_winner=self.tricks_done[-1].winner,
        )
        outcome = None
        goats = [team for team in (0, 1) if totals[team] >= SERIES_LIMIT]
        if goats:
            loser = goats[0]
            outcome = Outcome(
                winners=(1 - loser, 3 - loser),
                losers=(loser, loser + 2),
                reason="defeat_points",
                with_eggs=self.eggs > 0,
            )
        self._finish_deal(result, outcome)

    # --- views ------------------------------------------------------------------------------------------

    def _trick_top(self) -> int | None:
        return self.top if self.top >= 0 else None

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        return {
            "trump": self.trump,
            "trump_card": self.trump_card,
            "trump_card_holder": self.trump_card_holder,
            "trump_card_place": self.trump_card_place,
            "stock_size": len(self.stock),
            # F5: the shown card lies at its place in the stock, in sight of everybody
            "stock_trump_index": (
                self.stock.index(self.trump_card)
                if self.trump_card is not None and self.trump_card_holder is None
                else None
            ),
            "eggs_pending": self.eggs,
        }

    def situation(self) -> str:
        return f"{super().situation()}, trump {self.trump.symbol}, stock {len(self.stock)}"
