"""Czech Kozel from the rule book, rules K1-K9, the plainest way."""

from __future__ import annotations

from collections import Counter

from tests.reference.common import DealRecord, Ending, RefAction, act, rank, suit

# K2: ranks low to high.  The cards are written with the engine's French symbols; which symbol stands for
# each German suit is data, handed in by the caller (červené are the hearts in both patterns).
RANKS_LOW_TO_HIGH = ["7", "8", "9", "10", "J", "Q", "K", "A"]  # 7 8 9 10 spodek svršek král eso
HAND_SIZE = {3: 10, 4: 8, 5: 6, 6: 5}  # K3
TALON_SIZE = {3: 2, 4: 0, 5: 2, 6: 2}  # K3


class Czech:
    def __init__(self, first_dealer: int, players: int, symbols: dict[str, str]) -> None:
        """``symbols`` maps the Czech suit names to the card symbols, e.g. ``{"zelené": "♠", ...}``."""
        self.n = players
        self.hearts = symbols["červené"]
        self.kozel = "Q" + symbols["zelené"]  # K5: the green svršek
        self.deck = [r + s for s in symbols.values() for r in RANKS_LOW_TO_HIGH]
        self.dealer = first_dealer
        self.leader = (first_dealer + 1) % players  # K3
        self.totals = [0] * players
        self.deal_no = 0
        self.ending: Ending | None = None
        self.last_deal: DealRecord | None = None
        self.last_trick: tuple[int, list[str]] | None = None
        self.seen: Counter[str] = Counter()  # rare paths taken, for coverage counts

    def penalty(self, cards: list[str]) -> int:
        """K5: a heart 1, the kozel 13."""
        return sum(13 if c == self.kozel else 1 if suit(c) == self.hearts else 0 for c in cards)

    def start_deal(self, hands: list[list[str]], talon: list[str]) -> None:
        assert [len(h) for h in hands] == [HAND_SIZE[self.n]] * self.n, hands
        assert len(talon) == TALON_SIZE[self.n]
        assert sorted([c for h in hands for c in h] + talon) == sorted(self.deck)
        self.hands = [list(h) for h in hands]
        self.turn = self.leader
        self.trick: list[tuple[int, str]] = []
        self.tricks_played = 0
        self.tricks_won = [0] * self.n
        self.piles: list[list[str]] = [[] for _ in range(self.n)]
        self.doubled = False
        self.last_trick = None

    def legal(self, seat: int) -> set[RefAction]:
        if self.ending is not None:
            return set()
        hand = self.hands[seat]
        actions: set[RefAction] = set()
        if seat == self.turn:
            choices = list(hand)
            if self.trick:
                led = suit(self.trick[0][1])
                same = [c for c in hand if suit(c) == led]  # K4
                if same:
                    choices = same
            actions |= {act(seat, "play", [c]) for c in choices}
        if self.kozel in hand and not self.doubled and self.tricks_played == 0 and not self.trick:
            actions.add(act(seat, "double", [self.kozel]))  # K6
        return actions

    def apply(self, seat: int, kind: str, cards: list[str]) -> str | None:
        assert act(seat, kind, cards) in self.legal(seat), (seat, kind, cards)
        if kind == "double":
            self.doubled = True
            return None
        card = cards[0]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.n:
            self.turn = (seat + 1) % self.n
            return None
        led = suit(self.trick[0][1])
        best = max((RANKS_LOW_TO_HIGH.index(rank(c)), s) for s, c in self.trick if suit(c) == led)  # K4
        winner = best[1]
        self.piles[winner].extend(c for _s, c in self.trick)
        self.tricks_won[winner] += 1
        self.tricks_played += 1
        self.last_trick = (winner, [c for _s, c in self.trick])
        self.trick = []
        self.turn = winner
        if any(self.hands):
            return "trick"
        self.score_deal(winner)
        return "deal"

    def score_deal(self, last_winner: int) -> None:
        factor = 2 if self.doubled else 1  # K6
        pts = tuple(self.penalty(p) for p in self.piles)
        notes = {"double"} if self.doubled else set()
        if self.tricks_played in self.tricks_won:  # K7
            taker = self.tricks_won.index(self.tricks_played)
            score = tuple(0 if s == taker else 21 * factor for s in range(self.n))
            notes.add("all_tricks")
        else:
            score = tuple(p * factor for p in pts)
        self.totals = [t + s for t, s in zip(self.totals, score, strict=True)]
        self.last_deal = DealRecord(
            dealer=self.dealer,
            leader=self.leader,
            points=pts,
            score=score,
            totals=tuple(self.totals),
            tricks=tuple(self.tricks_won),
            last_trick_winner=last_winner,
            notes=notes,
        )
        if any(t > 100 for t in self.totals):  # K8
            lowest = min(self.totals)
            winners = tuple(s for s in range(self.n) if self.totals[s] == lowest)
            table = []
            for s in range(self.n):
                if s in winners:
                    table.append(6 if self.totals[s] == 0 else 3)  # K9, and its Decided note
                elif self.totals[s] > 100:
                    table.append(0)
                else:
                    table.append(1)
            if all(t > 100 for t in self.totals):
                notes.add("everyone_over_100")
            if 0 in (self.totals[s] for s in winners):
                notes.add("winner_on_zero")
            self.ending = Ending(
                winners=winners,
                losers=tuple(s for s in range(self.n) if self.totals[s] > 100),
                table_points=tuple(table),
            )
            return
        self.deal_no += 1
        self.dealer = (self.dealer + 1) % self.n  # K3
        self.leader = (self.dealer + 1) % self.n
