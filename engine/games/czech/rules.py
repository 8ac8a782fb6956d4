"""Czech Kozel: each for himself, penalty points, 3 to 6 players: rules K1–K10 of its rules.md.

The German-suited cards are the same card objects as the French ones (see ``engine.games.czech.names`` for their
German names): červené = ♥, zelené = ♠, žaludy = ♣, kule = ♦; spodek (U) = J, svršek (O) = Q.  The kozel,
the green svršek, is therefore the Q♠.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import Field

from engine.actions import Action, Kind, one_card_actions
from engine.cards import RANKS_32, Card, Rank, Suit, full_deck
from engine.registry import check_layout
from engine.state import DealResult, GameState, Layout, Options, Outcome, TrickRecord, deal_round_robin, shuffle

DECK: tuple[Card, ...] = full_deck(RANKS_32)  # K2; the Rank values already run 7 8 9 10 U O K A
KOZEL = Card(Suit.SPADES, Rank.QUEEN)  # the green svršek
HAND_SIZES = {3: 10, 4: 8, 5: 6, 6: 5}  # K3
GAME_LIMIT = 100  # K8
ALL_TRICKS_PENALTY = 21  # K7

PLAY_ONE = one_card_actions(Kind.PLAY, 6)
PENALTY: list[int] = [0] * 64  # K5
for _card in DECK:
    PENALTY[_card] = 13 if _card == KOZEL else 1 if _card.suit is Suit.HEARTS else 0


def penalty_points(cards: list[Card] | tuple[Card, ...]) -> int:
    return sum(map(PENALTY.__getitem__, cards))


def table_points(totals: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """K9: winners (lowest total) 3, plus 3 with a total of 0; over 100: 0; everyone else 1."""
    best = min(totals)
    return tuple((3 + (3 if t == 0 else 0)) if t == best else 0 if t > GAME_LIMIT else 1 for t in totals)


class CzechOptions(Options):
    players: int = Field(default=4, ge=3, le=6)  # K1

    @property
    def num_players(self) -> int:
        return self.players


@dataclass(eq=True)
class CzechState(GameState):
    VARIANT: ClassVar[str] = "czech"
    TOTALS_AGAINST: ClassVar[bool] = True
    TEAMS: ClassVar[bool] = False

    options: CzechOptions = field(default_factory=CzechOptions)
    talon: list[Card] = field(default_factory=list)  # K3: out of play, never shown
    piles: list[list[Card]] = field(default_factory=list)
    doubled: bool = False  # K6

    @classmethod
    def default_options(cls) -> CzechOptions:
        return CzechOptions()

    @classmethod
    def deck_for(cls, options: Options) -> tuple[Card, ...]:
        return DECK

    @staticmethod
    def follow_suit(card: Card) -> int | None:
        return card >> 4  # K4

    @classmethod
    def deal_value(cls, result: DealResult, seat: int) -> float:
        return cls.series_margin(result, seat)

    @classmethod
    def series_margin(cls, result: DealResult, seat: int) -> float:
        others = [p for s, p in enumerate(result.score) if s != seat]  # K5: penalty points, bad to have
        return sum(others) / len(others) - result.score[seat]

    @classmethod
    def deal_won(cls, result: DealResult, seat: int) -> bool:
        """The fewest penalty points of the deal, alone or shared, when not everybody had as few (K5)."""
        return result.score[seat] == min(result.score) < max(result.score)

    def _start_series(self) -> None:
        self.leader = (self.dealer + 1) % self.num_players  # K3

    def _make_layout(self, rng: random.Random) -> Layout:
        deck = list(DECK)
        shuffle(rng, deck)
        n = self.num_players
        per = HAND_SIZES[n]
        hands = deal_round_robin(deck, self.dealer, n, per)
        return Layout(tuple(tuple(h) for h in hands), tuple(deck[n * per :]))

    def _check_layout(self, layout: Layout) -> None:
        n = self.num_players
        check_layout(layout, DECK, [HAND_SIZES[n]] * n, len(DECK) - n * HAND_SIZES[n])

    def _begin_deal(self, layout: Layout) -> None:
        n = self.num_players
        self.talon = list(layout.rest)
        self.piles = [[] for _ in range(n)]
        self.doubled = False
        self.to_move = self.leader

    def _next_deal_seats(self) -> None:
        self.dealer = (self.dealer + 1) % self.num_players  # K3
        self.leader = (self.dealer + 1) % self.num_players

    # --- legal actions ----------------------------------------------------------------------------------

    def _legal(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        actions: list[Action] = []
        if seat == self.to_move:
            play = PLAY_ONE[seat]
            if self.trick:  # K4: follow suit if you can
                led = self.trick[0].cards[0] >> 4
                actions = [play[c] for c in hand if c >> 4 == led] or [play[c] for c in hand]
            else:
                actions = [play[c] for c in hand]
        if not self.doubled and not self.trick and not self.tricks_done and KOZEL in hand:
            actions.append(Action(seat, Kind.DOUBLE, (KOZEL,)))  # K6
        return actions

    def _others_may_act(self) -> bool:
        """Out of turn there is only the double, before the first card of the deal (K6)."""
        return not self.doubled and not self.trick and not self.tricks_done

    # --- applying ---------------------------------------------------------------------------------------

    def _play(self, action: Action) -> None:
        seat, kind, cards = action
        if kind is Kind.DOUBLE:
            self.doubled = True
            return
        self.hands[seat].remove(cards[0])
        self.trick.append(action)
        n = self.num_players
        if len(self.trick) < n:
            self.to_move = (seat + 1) % n
            return
        led = self.trick[0].cards[0] >> 4  # K4: the highest card of the led suit
        winner = max((p for p in self.trick if p.cards[0] >> 4 == led), key=lambda p: p.cards[0]).seat
        pile = self.piles[winner]
        for play in self.trick:
            pile += play.cards
        self.tricks_taken[winner] += 1
        self.tricks_done.append(TrickRecord(tuple(self.trick), winner))
        self.trick = []
        self.to_move = winner
        if not self.hands[winner]:
            self._score_deal()

    def _score_deal(self) -> None:
        """K5–K9."""
        n = self.num_players
        points = tuple(penalty_points(p) for p in self.piles)
        factor = 2 if self.doubled else 1
        events = ["double"] if self.doubled else []
        if max(self.tricks_taken) == len(self.tricks_done):  # K7
            taker = self.tricks_taken.index(len(self.tricks_done))
            score = tuple(0 if s == taker else ALL_TRICKS_PENALTY * factor for s in range(n))
            events.append("all_tricks")
        else:
            score = tuple(p * factor for p in points)
        totals = tuple(t + s for t, s in zip(self.totals, score, strict=True))
        result = DealResult(
            deal_no=self.deal_no,
            dealer=self.dealer,
            leader=self.leader,
            points=points,
            score=score,
            totals=totals,
            tricks=tuple(self.tricks_taken),
            events=tuple(events),
            last_trick_winner=self.tricks_done[-1].winner if self.tricks_done else None,
        )
        outcome = None
        if max(totals) > GAME_LIMIT:  # K8
            best = min(totals)
            outcome = Outcome(
                winners=tuple(s for s in range(n) if totals[s] == best),
                losers=tuple(s for s in range(n) if totals[s] > GAME_LIMIT),
                reason="over_100",
                table_points=table_points(totals),
            )
        self._finish_deal(result, outcome)

    # --- views ------------------------------------------------------------------------------------------

    def _view_extra(self, seat: int | None) -> dict[str, Any]:
        return {"talon_size": len(self.talon), "doubled": self.doubled}
