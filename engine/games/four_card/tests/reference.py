"""Four-card Kozel from the rule book, rules F1-F16, the plainest way."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

from tests.reference.common import DealRecord, Ending, RefAction, act, rank, suit

SUITS = ["♠", "♣", "♦", "♥"]
RANKS_LOW_TO_HIGH = ["6", "7", "8", "9", "J", "Q", "K", "10", "A"]  # F2: the ten above the king
POINTS = {"6": 0, "7": 0, "8": 0, "9": 0, "J": 2, "Q": 3, "K": 4, "10": 10, "A": 11}  # F3
DECK = [r + s for s in SUITS for r in RANKS_LOW_TO_HIGH]


def beats(x: str, y: str, trump: str) -> bool:
    """F6."""
    if suit(x) == suit(y):
        return RANKS_LOW_TO_HIGH.index(rank(x)) > RANKS_LOW_TO_HIGH.index(rank(y))
    return suit(x) == trump


def can_beat(cards: list[str], top: list[str], trump: str) -> bool:
    """F8: some pairing of the cards with the top's cards, one to one, where each card beats its partner."""
    if len(cards) != len(top):
        return False
    return any(all(beats(order[i], top[i], trump) for i in range(len(top))) for order in permutations(cards))


def points(cards: list[str]) -> int:
    return sum(POINTS[rank(c)] for c in cards)


def one_suit(cards: list[str] | tuple[str, ...]) -> bool:
    return len({suit(c) for c in cards}) == 1


class FourCard:
    def __init__(self, first_dealer: int) -> None:
        self.dealer = first_dealer
        self.leader = (first_dealer + 1) % 4  # F16: left of the dealer leads the first deal
        self.defeat = [0, 0]
        self.deals_with_eggs = 0
        self.deal_no = 0
        self.ending: Ending | None = None
        self.last_deal: DealRecord | None = None
        self.last_trick: tuple[int, list[str]] | None = None
        self.seen: Counter[str] = Counter()  # rare paths taken, for coverage counts

    # --- a deal -----------------------------------------------------------------------------------------

    def start_deal(self, hands: list[list[str]], stock: list[str], shown: str) -> None:
        """Take the deal as the engine dealt it: hands by seat, the stock top first, the shown card."""
        assert [len(h) for h in hands] == [4, 4, 4, 4], hands  # F4
        assert len(stock) == 20
        assert sorted([c for h in hands for c in h] + stock) == sorted(DECK), "not the deck"
        assert shown in stock[4:16], f"F5: the shown card {shown} is not in the middle of the stock {stock}"
        self.hands = [list(h) for h in hands]
        self.stock = list(stock)
        self.trump = suit(shown)  # F5
        self.piles: list[list[str]] = [[], []]
        self.tricks_won = [0, 0]
        self.last_trick = None
        self.new_trick(self.leader)

    def new_trick(self, leader: int) -> None:
        self.original_leader = leader
        self.turn = leader
        self.table: list[tuple[int, str, list[str]]] = []  # (seat, kind, cards) of this trick
        self.top_seat: int | None = None
        self.top_cards: list[str] = []
        self.molodka_seat: int | None = None  # who played the molodka now lying as the lead, if any
        self.answers = 0

    def nearness(self, seat: int) -> int:
        """F10: how far clockwise from the original leader (0 is the leader himself)."""
        return (seat - self.original_leader) % 4

    # --- legal actions ----------------------------------------------------------------------------------

    def legal(self, seat: int) -> set[RefAction]:
        if self.ending is not None:
            return set()
        hand = self.hands[seat]
        actions: set[RefAction] = set()
        if seat == self.turn and self.top_seat is None:
            # F7: 1 to 4 cards of one suit; F10: the leader's own four of a suit is a molodka
            for size in range(1, len(hand) + 1):
                for cards in combinations(hand, size):
                    if one_suit(cards):
                        actions.add(act(seat, "molodka" if size == 4 else "lead", cards))
        if seat == self.turn and self.top_seat is not None:
            # F8: beat the current top card by card, or put as many cards face down
            for cards in combinations(hand, len(self.top_cards)):
                actions.add(act(seat, "discard", cards))
                if can_beat(list(cards), self.top_cards, self.trump):
                    actions.add(act(seat, "beat", cards))
        # F10: four cards of one suit in hand, out of turn, until the trick is complete
        if len(hand) == 4 and one_suit(hand):
            first = self.molodka_seat
            if first is None or (self.answers == 0 and self.nearness(seat) < self.nearness(first)):
                actions.add(act(seat, "molodka", hand))
        return actions

    # --- applying ---------------------------------------------------------------------------------------

    def apply(self, seat: int, kind: str, cards: list[str]) -> str | None:
        """Apply an action the reference holds legal; say "trick" or "deal" when one ended."""
        assert act(seat, kind, cards) in self.legal(seat), (seat, kind, cards)
        if kind == "molodka":
            if self.molodka_seat is not None:
                self.seen["molodka_replaced"] += 1
            elif self.answers:
                self.seen["molodka_after_answers"] += 1
            elif self.top_seat is not None:
                self.seen["molodka_after_lead"] += 1
            elif seat != self.turn:
                self.seen["molodka_before_lead"] += 1
            else:
                self.seen["molodka_lead"] += 1
            for who, _kind, played in self.table:  # F10: the cards on the table go back
                self.hands[who].extend(played)
            for c in cards:
                self.hands[seat].remove(c)
            self.table = [(seat, kind, list(cards))]
            self.top_seat, self.top_cards = seat, list(cards)
            self.molodka_seat = seat
            self.answers = 0
            self.turn = (seat + 1) % 4
            return None
        for c in cards:
            self.hands[seat].remove(c)
        self.table.append((seat, kind, list(cards)))
        if kind == "lead":
            self.top_seat, self.top_cards = seat, list(cards)
            self.turn = (seat + 1) % 4
            return None
        if kind == "beat":  # F8: the beat is the new current top
            self.top_seat, self.top_cards = seat, list(cards)
        self.answers += 1
        self.turn = (seat + 1) % 4
        if self.answers < 3:
            return None
        return self.finish_trick()

    def finish_trick(self) -> str:
        assert self.top_seat is not None
        winner = self.top_seat  # F9
        team = winner % 2
        everything = [c for _seat, _kind, played in self.table for c in played]
        self.piles[team].extend(everything)
        self.tricks_won[team] += 1
        self.last_trick = (winner, everything)
        # F11: from the winner clockwise, one card at a time, until each holds 4 or the stock is empty
        seat = winner
        while self.stock and any(len(h) < 4 for h in self.hands):
            if len(self.hands[seat]) < 4:
                self.hands[seat].append(self.stock.pop(0))
            seat = (seat + 1) % 4
        if not self.stock and not any(self.hands):  # F13
            self.score_deal(winner)
            return "deal"
        self.new_trick(winner)  # F12
        return "trick"

    def score_deal(self, last_winner: int) -> None:
        pts = (points(self.piles[0]), points(self.piles[1]))
        score = [0, 0]
        eggs = pts == (60, 60)
        notes = set()
        if eggs:
            self.deals_with_eggs += 1  # F14: eggs, nobody gets defeat points
            notes.add("eggs")
        else:
            loser = 0 if pts[0] < pts[1] else 1
            assert pts[1 - loser] >= 61
            if self.tricks_won[loser] == 0:
                score[loser] = 6
            elif pts[loser] <= 30:
                score[loser] = 4
            elif 31 <= pts[loser] <= 59:
                score[loser] = 2
            notes.add(f"defeat_{score[loser]}")
        self.defeat = [self.defeat[0] + score[0], self.defeat[1] + score[1]]
        self.last_deal = DealRecord(
            dealer=self.dealer,
            leader=self.leader,
            points=pts,
            score=tuple(score),
            totals=tuple(self.defeat),
            tricks=tuple(self.tricks_won),
            eggs=eggs,
            last_trick_winner=last_winner,
            notes=notes,
        )
        for team in (0, 1):
            if self.defeat[team] >= 12:  # F15
                self.ending = Ending(
                    winners=(1 - team, 3 - team), losers=(team, team + 2), with_eggs=self.deals_with_eggs > 0
                )
                return
        self.deal_no += 1
        self.dealer = (self.dealer + 1) % 4  # F16
        self.leader = last_winner  # F16
