"""Classic Kozel: jacks, queens and clubs are trumps: rules C1–C14 of its rules.md, with their house-rule options."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from engine.actions import Action, Kind, one_card_actions
from engine.cards import RANKS_32, RANKS_36, Card, Rank, Suit, full_deck, parse_cards
from engine.registry import check_layout
from engine.state import DealResult, GameState, Layout, Options, Outcome, TrickRecord, deal_round_robin, shuffle

DECK_36: tuple[Card, ...] = full_deck(RANKS_36)
DECK_32: tuple[Card, ...] = full_deck(RANKS_32)
SERIES_TARGET = 12  # C14
REDEAL_MAX_POINTS = 13  # C6
ACE_OF_DIAMONDS = Card(Suit.DIAMONDS, Rank.ACE)
QUEEN_OF_CLUBS = Card(Suit.CLUBS, Rank.QUEEN)
JACK_OF_CLUBS = Card(Suit.CLUBS, Rank.JACK)
SIX_OF_CLUBS = Card(Suit.CLUBS, Rank.SIX)

# C3: the trumps, low to high.
TRUMP_ORDER: tuple[Card, ...] = parse_cards("7C 8C 9C KC TC AC JD JH JS JC QD QH QS QC 6C")
# C4: plain cards within a suit, low to high.
PLAIN_ORDER = (Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.NINE, Rank.KING, Rank.TEN, Rank.ACE)
_RANK_POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2}  # C5

TRUMP_SUIT = 4  # the effective "suit" of every trump
POWER: list[int] = [0] * 64  # higher wins; trumps above every plain card
ESUIT: list[int] = [0] * 64  # effective suit: TRUMP_SUIT for trumps, else the printed suit
POINTS: list[int] = [0] * 64
for _card in DECK_36:
    POINTS[_card] = _RANK_POINTS.get(_card.rank, 0)
    if _card in TRUMP_ORDER:
        POWER[_card] = 100 + TRUMP_ORDER.index(_card)
        ESUIT[_card] = TRUMP_SUIT
    else:
        POWER[_card] = PLAIN_ORDER.index(_card.rank)
        ESUIT[_card] = _card.suit


PLAY_ONE = one_card_actions(Kind.PLAY, 4)
QUEEN_AND_SIX = (QUEEN_OF_CLUBS, SIX_OF_CLUBS)  # C12


def is_trump(card: Card) -> bool:
    return ESUIT[card] == TRUMP_SUIT


def card_points(cards: list[Card] | tuple[Card, ...]) -> int:
    return sum(map(POINTS.__getitem__, cards))


def trick_winner(plays: list[Action] | tuple[Action, ...]) -> int:
    """C11: the highest trump, or with no trump the highest plain card of the led suit."""
    led = ESUIT[plays[0].cards[0]]
    best, power = plays[0].seat, -1
    for p in plays:  # a plain loop: max() over a generator with a key costs a call per card
        if ESUIT[p.cards[0]] in (led, TRUMP_SUIT) and POWER[p.cards[0]] > power:
            best, power = p.seat, POWER[p.cards[0]]
    return best


def pairs_for(points: int) -> int:
    """C13: series points for a deal's card points (0 below 61)."""
    if points >= 91:
        return 4
    return 2 if points >= 61 else 0


class ClassicOptions(Options):
    deck: Literal[36, 32] = 36  # C2
    redeal: bool = True  # C6
    all_tricks: Literal["score", "lose_series"] = "score"  # C13


@dataclass(eq=True)
class ClassicState(GameState):
    VARIANT: ClassVar[str] = "classic"

    options: ClassicOptions = field(default_factory=ClassicOptions)
    piles: list[list[Card]] = field(default_factory=list)
    banned: list[int] = field(default_factory=list)  # C9: seats that may not lead a trump this deal
    exchanged: list[int] = field(default_factory=list)  # C7: teams that went out of trumps this deal
    giving_back: int = -1  # C7: the partner who must give a plain card back, or -1
    eggs_pending: int = 0  # C13: deals ended 60:60 since the last score
    eggs: int = 0  # deals of this series that ended 60:60

    @classmethod
    def default_options(cls) -> ClassicOptions:
        return ClassicOptions()

    @property
    def deck(self) -> tuple[Card, ...]:
        return self.deck_for(self.options)

    @classmethod
    def deck_for(cls, options: Options) -> tuple[Card, ...]:
        return DECK_32 if isinstance(options, ClassicOptions) and options.deck == 32 else DECK_36

    @staticmethod
    def follow_suit(card: Card) -> int | None:
        return ESUIT[card]  # C10: every trump counts as one suit

    # --- dealing ----------------------------------------------------------------------------------------

    def _make_layout(self, rng: random.Random) -> Layout:
        deck = list(self.deck)
        shuffle(rng, deck)
        hands = deal_round_robin(deck, self.dealer, 4, len(deck) // 4)  # C2: all the cards
        return Layout(tuple(tuple(h) for h in hands))

    def _check_layout(self, layout: Layout) -> None:
        check_layout(layout, self.deck, [len(self.deck) // 4] * 4, 0)

    def _begin_deal(self, layout: Layout) -> None:
        if self.deal_no == 0:  # C8: the holder of the A♦ leads; C9: nobody may lead a trump
            self.leader = next(s for s in range(4) if ACE_OF_DIAMONDS in self.hands[s])
            self.banned = [0, 1, 2, 3]
        self.piles = [[], []]
        self.exchanged = []
        self.giving_back = -1
        self.to_move = self.leader

    def _next_deal_seats(self) -> None:
        previous = self.leader
        self.leader = (previous + 1) % 4  # C8
        self.dealer = previous  # C8: the player right of the new leader
        self.banned = [previous % 2, previous % 2 + 2]  # C9

    @property
    def before_first_lead(self) -> bool:
        return not self.trick and not self.tricks_done

    # --- legal actions ----------------------------------------------------------------------------------

    def _legal(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        if self.giving_back >= 0:  # C7: nothing else happens until the partner gives a card back
            if seat != self.giving_back:
                return []
            return [Action(seat, Kind.GIVE_BACK, (c,)) for c in hand if not is_trump(c)]
        actions: list[Action] = []
        if seat == self.to_move:
            actions = self._plays(seat, hand)
        if not self.trick and not self.tricks_done:  # before the first lead
            if self.options.redeal and card_points(hand) <= REDEAL_MAX_POINTS:  # C6
                actions.append(Action(seat, Kind.REDEAL))
            trumps = [c for c in hand if ESUIT[c] == TRUMP_SUIT]
            if (
                self.deal_no > 0
                and len(trumps) == 1
                and seat % 2 not in self.exchanged
                and any(not is_trump(c) for c in self.hands[(seat + 2) % 4])
            ):
                actions.append(Action(seat, Kind.EXCHANGE, (trumps[0],)))  # C7
        return actions

    def _others_may_act(self) -> bool:
        """Out of turn there is only the redeal and going out of trumps before the first lead (C6, C7), and
        while a card is owed back only the partner who owes it acts (and he is the one to move)."""
        return self.giving_back >= 0 or (not self.trick and not self.tricks_done)

    def _plays(self, seat: int, hand: list[Card]) -> list[Action]:
        if not self.trick:
            if self.deal_no == 0 and not self.tricks_done:  # C8: the first lead is the A♦
                return [Action(seat, Kind.PLAY, (ACE_OF_DIAMONDS,))]
            choices = hand
            if seat in self.banned:  # C9, lifted for a hand of trumps only
                plain = [c for c in hand if not is_trump(c)]
                choices = plain or hand
        else:
            play = PLAY_ONE[seat]
            led = ESUIT[self.trick[0].cards[0]]
            follow = [play[c] for c in hand if ESUIT[c] == led]  # C10
            return follow or [play[c] for c in hand]
        play = PLAY_ONE[seat]
        return [play[c] for c in choices]

    # --- applying ---------------------------------------------------------------------------------------

    def _play(self, action: Action) -> None:
        seat, kind, cards = action
        if kind is Kind.PLAY:
            self._play_card(action)
        elif kind is Kind.REDEAL:  # C6: the same dealer deals again
            self.attempt += 1
            self._deal()
        elif kind is Kind.EXCHANGE:  # C7
            partner = (seat + 2) % 4
            self.hands[seat].remove(cards[0])
            self.hands[partner].append(cards[0])
            self.hands[partner].sort()
            self.giving_back = partner
            self.to_move = partner
        elif kind is Kind.GIVE_BACK:
            giver = (seat + 2) % 4
            self.hands[seat].remove(cards[0])
            self.hands[giver].append(cards[0])
            self.hands[giver].sort()
            self.exchanged.append(seat % 2)
            self.giving_back = -1
            self.to_move = self.leader

    def _play_card(self, action: Action) -> None:
        seat, card = action.seat, action.cards[0]
        self.hands[seat].remove(card)
        self.trick.append(action)
        if card in QUEEN_AND_SIX and self._queen_caught():  # the catch happens as the second of them falls
            return
        if len(self.trick) < 4:
            self.to_move = (seat + 1) % 4
            return
        winner = trick_winner(self.trick)
        team = winner % 2
        pile = self.piles[team]
        for play in self.trick:
            pile += play.cards
        self.tricks_taken[team] += 1
        self.tricks_done.append(TrickRecord(tuple(self.trick), winner))
        self.trick = []
        self.to_move = winner  # C11
        if not self.hands[winner]:
            self._score_deal()

    def _queen_caught(self) -> bool:
        """C12: the Q♣ and the 6♣ in one trick from different teams stop the deal at once."""
        by_card = {p.cards[0]: p.seat for p in self.trick}
        queen, six = by_card.get(QUEEN_OF_CLUBS), by_card.get(SIX_OF_CLUBS)
        if queen is None or six is None or queen % 2 == six % 2:
            return False
        score = [0, 0]
        score[six % 2] = 4
        self._settle((0, 0), score, events=["queen_caught"])
        return True

    def _score_deal(self) -> None:
        """C13."""
        points = (card_points(self.piles[0]), card_points(self.piles[1]))
        score = [pairs_for(points[0]), pairs_for(points[1])]
        events: list[str] = []
        if 0 in self.tricks_taken:
            taker = 0 if self.tricks_taken[1] == 0 else 1
            events.append("all_tricks")
            if self.options.all_tricks == "lose_series":
                self._settle(points, [0, 0], events, no_trick_loser=1 - taker)
                return
            score[taker] = 4
            score[1 - taker] = 0
            events.append("reset")
        elif points[0] == points[1]:
            events.append("eggs")
        self._settle(points, score, events)

    def _settle(
        self, points: tuple[int, int], score: list[int], events: list[str], no_trick_loser: int | None = None
    ) -> None:
        """Add a deal's score with the eggs bonus of C13, and end the series at 12 (C14)."""
        eggs = "eggs" in events
        if eggs:
            self.eggs_pending += 1
            self.eggs += 1
        elif self.eggs_pending and any(score):
            scorer = 0 if score[0] else 1
            score[scorer] += 2 * self.eggs_pending
            events.append(f"egg_bonus:{2 * self.eggs_pending}")
            self.eggs_pending = 0
        totals = [t + s for t, s in zip(self.totals, score, strict=True)]
        if "reset" in events:
            totals[0 if score[0] == 0 else 1] = 0
        result = DealResult(
            deal_no=self.deal_no,
            dealer=self.dealer,
            leader=self.leader,
            points=points,
            score=tuple(score),
            totals=tuple(totals),
            tricks=tuple(self.tricks_taken),
            eggs=eggs,
            events=tuple(events),
            last_trick_winner=self.tricks_done[-1].winner if self.tricks_done else None,
        )
        outcome = None
        if no_trick_loser is not None:
            outcome = self._outcome(1 - no_trick_loser, "no_trick")
        elif max(totals) >= SERIES_TARGET:
            outcome = self._outcome(0 if totals[0] >= SERIES_TARGET else 1, "series_points")
        self._finish_deal(result, outcome)

    def _outcome(self, winner: int, reason: str) -> Outcome:
        return Outcome(
            winners=(winner, winner + 2),
            losers=(1 - winner, 3 - winner),
            reason=reason,
            with_eggs=self.eggs > 0,
        )

    # --- views ------------------------------------------------------------------------------------------

    def _hidden_from(self, action: Action, seat: int | None) -> bool:
        """C7: the exchanged cards are known only to the two partners."""
        if action.kind in (Kind.EXCHANGE, Kind.GIVE_BACK):
            return seat is None or seat % 2 != action.seat % 2
        return super()._hidden_from(action, seat)

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        exchange = None
        if seat is not None and seat % 2 in self.exchanged:
            log = self.history[self.deal_start :]
            given = next(a.cards[0] for a in log if a.kind is Kind.EXCHANGE and a.seat % 2 == seat % 2)
            back = next(a.cards[0] for a in log if a.kind is Kind.GIVE_BACK and a.seat % 2 == seat % 2)
            exchange = (given, back)
        return {
            "eggs_pending": self.eggs_pending,
            "trump_lead_banned": tuple(self.banned),
            "exchange": exchange,
        }
