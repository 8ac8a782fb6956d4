"""Classic Kozel from the rule book, rules C1-C14, the plainest way."""

from __future__ import annotations

from collections import Counter

from tests.reference.common import DealRecord, Ending, RefAction, act, rank, suit

# C3: the trumps, low to high, copied from the rule text.
TRUMPS_LOW_TO_HIGH = ["7♣", "8♣", "9♣", "K♣", "10♣", "A♣", "J♦", "J♥", "J♠", "J♣", "Q♦", "Q♥", "Q♠", "Q♣", "6♣"]
# C4: plain cards of ♠ ♥ ♦, low to high.
PLAIN_LOW_TO_HIGH = ["6", "7", "8", "9", "K", "10", "A"]
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}  # C5, others 0


def deck(size: int) -> list[str]:
    """C2."""
    ranks = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"] if size == 36 else ["7", "8", "9", "10", "J", "Q", "K", "A"]
    return [r + s for s in "♠♣♦♥" for r in ranks]


def is_trump(card: str) -> bool:
    return card in TRUMPS_LOW_TO_HIGH


def group(card: str) -> str:
    """What a card counts as when following (C10): "trump", or its printed suit."""
    return "trump" if is_trump(card) else suit(card)


def points(cards: list[str]) -> int:
    return sum(POINTS.get(rank(c), 0) for c in cards)


def trick_winner(plays: list[tuple[int, str]]) -> int:
    """C11: the highest trump, else the highest plain card of the led suit."""
    trumps = [(TRUMPS_LOW_TO_HIGH.index(c), seat) for seat, c in plays if is_trump(c)]
    if trumps:
        return max(trumps)[1]
    led = suit(plays[0][1])
    followers = [(PLAIN_LOW_TO_HIGH.index(rank(c)), seat) for seat, c in plays if suit(c) == led]
    return max(followers)[1]


def pairs(card_points: int) -> int:
    """C13."""
    if card_points >= 91:
        return 4
    if 61 <= card_points <= 90:
        return 2
    return 0


class Classic:
    def __init__(self, first_dealer: int, deck_size: int = 36, redeal: bool = True, all_tricks: str = "score") -> None:
        self.deck_size = deck_size
        self.redeal_allowed = redeal
        self.all_tricks_loses_series = all_tricks == "lose_series"
        self.dealer = first_dealer  # C8: chosen at random (by the engine)
        self.deal_no = 0
        self.previous_first_leader: int | None = None
        self.totals = [0, 0]
        self.eggs_in_a_row = 0
        self.ending: Ending | None = None
        self.last_deal: DealRecord | None = None
        self.last_trick: tuple[int, list[str]] | None = None
        self.seen: Counter[str] = Counter()  # rare paths taken, for coverage counts

    def team(self, seat: int) -> int:
        return seat % 2

    # --- a deal -----------------------------------------------------------------------------------------

    def start_deal(self, hands: list[list[str]]) -> None:
        """Take the deal as the engine dealt it (also after a redeal, C6)."""
        per_hand = self.deck_size // 4
        assert [len(h) for h in hands] == [per_hand] * 4, hands  # C2
        assert sorted(c for h in hands for c in h) == sorted(deck(self.deck_size))
        self.hands = [list(h) for h in hands]
        if self.deal_no == 0:
            self.leader = next(s for s in range(4) if "A♦" in self.hands[s])  # C8
            self.banned = [0, 1, 2, 3]  # C9
        else:
            assert self.previous_first_leader is not None
            self.leader = (self.previous_first_leader + 1) % 4  # C8
            self.dealer = self.previous_first_leader  # C8: right of the leader
            self.banned = [s for s in range(4) if s % 2 == self.previous_first_leader % 2]  # C9
        self.turn = self.leader
        self.trick: list[tuple[int, str]] = []
        self.tricks_played = 0
        self.tricks_won = [0, 0]
        self.piles: list[list[str]] = [[], []]
        self.owes_card_back: int | None = None  # C7: the partner who must give a plain card back
        self.teams_exchanged: list[int] = []
        self.last_trick = None
        self.last_winner = -1

    def before_first_lead(self) -> bool:
        return self.tricks_played == 0 and not self.trick

    # --- legal actions ----------------------------------------------------------------------------------

    def legal(self, seat: int) -> set[RefAction]:
        if self.ending is not None:
            return set()
        hand = self.hands[seat]
        if self.owes_card_back is not None:  # C7 Decided: nothing else until the card comes back
            if seat != self.owes_card_back:
                return set()
            return {act(seat, "giveback", [c]) for c in hand if not is_trump(c)}
        actions: set[RefAction] = set()
        if seat == self.turn:
            if not self.trick:
                if self.deal_no == 0 and self.tricks_played == 0:
                    choices = ["A♦"]  # C8
                elif seat in self.banned and any(not is_trump(c) for c in hand):
                    choices = [c for c in hand if not is_trump(c)]  # C9
                else:
                    choices = list(hand)
            else:
                led = group(self.trick[0][1])
                same = [c for c in hand if group(c) == led]  # C10
                choices = same if same else list(hand)
            actions |= {act(seat, "play", [c]) for c in choices}
        if self.before_first_lead():
            if self.redeal_allowed and points(hand) <= 13:  # C6
                actions.add(act(seat, "redeal"))
            trumps = [c for c in hand if is_trump(c)]
            partner = (seat + 2) % 4
            if (
                self.deal_no > 0
                and len(trumps) == 1
                and self.team(seat) not in self.teams_exchanged
                and any(not is_trump(c) for c in self.hands[partner])
            ):
                actions.add(act(seat, "exchange", trumps))  # C7
        return actions

    # --- applying ---------------------------------------------------------------------------------------

    def apply(self, seat: int, kind: str, cards: list[str]) -> str | None:
        """Apply an action the reference holds legal; say "redeal", "trick" or "deal" when one happened."""
        assert act(seat, kind, cards) in self.legal(seat), (seat, kind, cards)
        if kind == "redeal":
            self.seen["redeal_after_exchange" if self.teams_exchanged else "redeal"] += 1
            return "redeal"  # C6: the same dealer deals again; the caller hands over the new deal
        if kind == "exchange":
            self.seen["exchange"] += 1
            partner = (seat + 2) % 4
            self.hands[seat].remove(cards[0])
            self.hands[partner].append(cards[0])
            self.owes_card_back = partner
            return None
        if kind == "giveback":
            partner = (seat + 2) % 4
            self.hands[seat].remove(cards[0])
            self.hands[partner].append(cards[0])
            self.teams_exchanged.append(self.team(seat))
            self.owes_card_back = None
            return None
        card = cards[0]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        on_table = {c: s for s, c in self.trick}
        if "Q♣" in on_table and "6♣" in on_table and self.team(on_table["Q♣"]) != self.team(on_table["6♣"]):
            score = [0, 0]
            score[self.team(on_table["6♣"])] = 4  # C12
            self.settle((0, 0), score, {"queen_caught"} | ({"queen_caught_later"} if self.tricks_played else set()))
            return "deal"
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return None
        winner = trick_winner(self.trick)
        self.piles[self.team(winner)].extend(c for _s, c in self.trick)
        self.tricks_won[self.team(winner)] += 1
        self.tricks_played += 1
        self.last_trick = (winner, [c for _s, c in self.trick])
        self.last_winner = winner
        self.trick = []
        self.turn = winner  # C11
        if any(self.hands):
            return "trick"
        self.score_deal()
        return "deal"

    def score_deal(self) -> None:
        pts = (points(self.piles[0]), points(self.piles[1]))
        if 0 in self.tricks_won:  # C13: one team took every trick
            taker = 0 if self.tricks_won[1] == 0 else 1
            if self.all_tricks_loses_series:
                self.settle(pts, [0, 0], {"all_tricks"}, no_trick_team=1 - taker)
            else:
                score = [0, 0]
                score[taker] = 4
                self.settle(pts, score, {"all_tricks"}, drop_to_zero=1 - taker)
            return
        if pts == (60, 60):
            self.settle(pts, [0, 0], {"eggs"})
            return
        self.settle(pts, [pairs(pts[0]), pairs(pts[1])], set())

    def settle(
        self,
        pts: tuple[int, int],
        score: list[int],
        notes: set[str],
        no_trick_team: int | None = None,
        drop_to_zero: int | None = None,
    ) -> None:
        eggs = "eggs" in notes
        if eggs:
            self.eggs_in_a_row += 1
            if self.eggs_in_a_row >= 2:
                notes.add("eggs_in_a_row")
        elif score != [0, 0] and self.eggs_in_a_row:
            scorer = 0 if score[0] else 1
            score[scorer] += 2 * self.eggs_in_a_row  # C13: one extra pair per egg deal in a row
            notes.add(f"egg_bonus_{2 * self.eggs_in_a_row}")
            self.eggs_in_a_row = 0
        totals = [self.totals[0] + score[0], self.totals[1] + score[1]]
        if drop_to_zero is not None:
            if totals[drop_to_zero]:
                notes.add("dropped_to_zero")
            totals[drop_to_zero] = 0
        self.totals = totals
        self.last_deal = DealRecord(
            dealer=self.dealer,
            leader=self.leader,
            points=pts,
            score=tuple(score),
            totals=tuple(totals),
            tricks=tuple(self.tricks_won),
            eggs=eggs,
            last_trick_winner=self.last_winner if self.tricks_played else None,
            notes=notes,
        )
        if no_trick_team is not None:
            winner = 1 - no_trick_team
            self.ending = Ending(winners=(winner, winner + 2), losers=(no_trick_team, no_trick_team + 2), no_trick=True)
            return
        for team in (0, 1):
            if totals[team] >= 12:  # C14
                self.ending = Ending(winners=(team, team + 2), losers=(1 - team, 3 - team))
                return
        self.previous_first_leader = self.leader
        self.deal_no += 1
