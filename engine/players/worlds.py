"""Determinization: complete states that agree with everything one seat has seen.

A computer player is given a seat's view (RULES X1) and nothing else.  To look ahead it samples the cards it
cannot see — other hands, face-down discards, the stock, the talon — consistently with what the view shows:

* every face-up card of the deal is where the view shows it (a trick, the table, or — after a molodka sent
  it back, F10 — the hand of the player who had played it, or a face-down play he made since);
* a player who did not follow the led suit holds none of it, in a game whose state says which suit a card
  follows (``follow_suit``: C10, K4, where nobody draws);
* the shown trump card lies at its place in the stock, or with the player who drew it — in his hand or
  among the face-down discards he made after drawing it (F5, F11);
* hand sizes, the stock, the talon and the number of face-down cards are as counted;
* what the game's own rules tell, from its package (``ComputerPlay.infer``: for example who went out of
  trumps, C7, who must still hold the A♦, C8, or the kozel of a double, K6);
* the seat may do in the world just what it may in the view (C7: a seat that may go out of trumps knows that
  his partner holds a plain card to give back).

The sampled world is a fresh state of the same variant positioned at the view's moment; search plays it on.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.actions import Action, Kind
from engine.cards import Card
from engine.registry import find_variant
from engine.state import GameState, SeenPlay, TrickRecord, View

GREEDY_ATTEMPTS = 20  # greedy placements tried before the matching, which is slower but always finds one
LEGAL_ATTEMPTS = 100  # worlds sampled before giving up on one in which the seat's legal actions are the view's


class SamplingError(ValueError):
    """No placement of the hidden cards agrees with the view (a bug: the real deal is one)."""


@dataclass
class _Slot:
    """A place for hidden cards: a seat's hand, one face-down play, the stock or the talon."""

    owner: int | None  # the seat it belongs to (hands and face-down plays)
    capacity: int
    is_hand: bool = False
    trick: int | None = None  # the trick of the deal a face-down play was made in
    cards: list[Card] = field(default_factory=list)


class Knowledge:
    """What a seat knows about where the cards of the current deal are, worked out once per decision."""

    def __init__(self, view: View) -> None:
        if view.seat is None:
            raise ValueError("a computer player needs a seat's view, not the group's")
        self.view = view
        self.variant = find_variant(view.variant)
        self.state_class = self.variant.state_class
        seat = view.seat
        n = view.num_players
        self.fixed: list[list[Card]] = [[] for _ in range(n)]  # cards certainly in a hand
        self.fixed[seat] = list(view.hand)
        self.voids: list[set[int]] = [set() for _ in range(n)]
        self.slots: list[_Slot] = []
        self.owner_of: dict[Card, int] = {}  # cards that must go to a slot of this seat
        # Of a card of ``owner_of``, the tricks of the deal whose face-down plays of its owner may hold it: from
        # the trick he came to hold it in, and (where the game says so) up to one after which it cannot be
        # in his hand any more.
        self.earliest: dict[Card, int] = {}
        self.latest: dict[Card, int] = {}
        placed: set[Card] = set(view.hand)
        # Face-down plays become slots; face-up cards are placed.
        self.trick_slots: list[list[_Slot | None]] = []
        for number, trick in enumerate([*(t.plays for t in view.tricks), view.trick]):
            row: list[_Slot | None] = []
            for play in trick:
                if play.face_down:
                    slot = _Slot(play.seat, play.count, trick=number)
                    self.slots.append(slot)
                    row.append(slot)
                else:
                    placed.update(play.cards)
                    row.append(None)
            self.trick_slots.append(row)
        self._learn_voids(view)
        on_table = set(placed)
        # F10: a face-up card played in this deal and no longer on the table went back to its player (who
        # holds it, or has put it face down since the trick of the molodka that sent it back).
        tricks = [*(t.plays for t in view.tricks), view.trick]
        for index, play in enumerate(view.deal_log):
            if play.seat != seat and play.kind in (Kind.LEAD, Kind.BEAT, Kind.MOLODKA, Kind.PLAY):
                for card in play.cards:
                    if card not in on_table:
                        self.owner_of[card] = play.seat
                        self.earliest[card] = next(
                            number
                            for later in view.deal_log[index + 1 :]
                            if later.kind is Kind.MOLODKA
                            for number, trick in enumerate(tricks)
                            if later in trick
                        )
        # F5: the shown trump card.
        self.stock_trump: Card | None = None
        if view.trump_card is not None and view.trump_card not in placed:
            if view.trump_card_holder is None:
                self.stock_trump = view.trump_card
                placed.add(view.trump_card)
            elif view.trump_card_holder != seat:
                self.owner_of[view.trump_card] = view.trump_card_holder
        self.variant.computer.infer(self, placed)  # what the game's own rules tell
        self.hand_slots: list[_Slot | None] = []
        for s in range(n):
            if s == seat:
                self.hand_slots.append(None)
                continue
            slot = _Slot(s, view.hand_sizes[s] - len(self.fixed[s]), is_hand=True)
            self.slots.append(slot)
            self.hand_slots.append(slot)
        stock_hidden = view.stock_size - (1 if self.stock_trump is not None else 0)
        self.stock_slot = _Slot(None, stock_hidden)
        self.talon_slot = _Slot(None, view.talon_size)
        self.slots += [self.stock_slot, self.talon_slot]
        self.unknown = [c for c in self.state_class.deck_for(view.options) if c not in placed]
        if len(self.unknown) != sum(s.capacity for s in self.slots):
            raise SamplingError(f"{len(self.unknown)} hidden cards for {sum(s.capacity for s in self.slots)} places")
        self.eligible = {card: self._eligible(card) for card in self.unknown}

    def _learn_voids(self, view: View) -> None:
        suit = self.state_class.follow_suit
        for trick in [*(t.plays for t in view.tricks), view.trick]:
            plays = [p for p in trick if p.kind is Kind.PLAY]
            if not plays or (led := suit(plays[0].cards[0])) is None:
                continue
            for play in plays[1:]:
                if suit(play.cards[0]) != led:
                    self.voids[play.seat].add(led)

    def _eligible(self, card: Card) -> list[_Slot]:
        suit = self.state_class.follow_suit(card)
        owner = self.owner_of.get(card)
        earliest, latest = self.earliest.get(card, 0), self.latest.get(card)
        result = []
        for slot in self.slots:
            if slot.capacity == 0:
                continue
            if owner is not None and slot.owner != owner:
                continue
            if slot.trick is not None and (slot.trick < earliest or (latest is not None and slot.trick > latest)):
                continue
            if slot.is_hand and latest is not None:
                continue
            if slot.is_hand and slot.owner is not None and suit is not None and suit in self.voids[slot.owner]:
                continue
            result.append(slot)
        return result

    # --- sampling ---------------------------------------------------------------------------------------

    def sample(self, rng: random.Random, attempts: int = GREEDY_ATTEMPTS) -> None:
        """Place every hidden card in a slot: greedily, most constrained cards first, a few times; where the
        constraints are tight enough for that to keep failing, by a matching, which finds a placement
        whenever one exists."""
        cards = list(self.unknown)
        for _ in range(attempts):
            rng.shuffle(cards)
            cards.sort(key=lambda c: len(self.eligible[c]))
            for slot in self.slots:
                slot.cards = []
            if all(self._place(card, rng) for card in cards):
                return
        self._match(cards, rng)

    def _place(self, card: Card, rng: random.Random) -> bool:
        open_slots = [s for s in self.eligible[card] if len(s.cards) < s.capacity]
        if not open_slots:
            return False
        weights = [s.capacity - len(s.cards) for s in open_slots]
        rng.choices(open_slots, weights)[0].cards.append(card)
        return True

    def _match(self, cards: list[Card], rng: random.Random) -> None:
        """A placement as a maximum bipartite matching of cards to the slots' places (augmenting paths), the
        cards and each card's slots taken in random order."""
        for slot in self.slots:
            slot.cards = []
        rng.shuffle(cards)
        for card in cards:
            if not self._augment(card, set(), rng):
                raise SamplingError("no placement of the hidden cards agrees with the view")

    def _augment(self, card: Card, visited: set[int], rng: random.Random) -> bool:
        slots = list(self.eligible[card])
        rng.shuffle(slots)
        for slot in slots:
            if len(slot.cards) < slot.capacity:
                slot.cards.append(card)
                return True
        for slot in slots:
            if id(slot) in visited:
                continue
            visited.add(id(slot))
            for i, other in enumerate(slot.cards):
                if self._augment(other, visited, rng):
                    slot.cards[i] = card
                    return True
        return False

    def world(self, rng: random.Random, attempts: int = GREEDY_ATTEMPTS) -> GameState:
        """A complete state that agrees with the view, its hidden cards freshly sampled (``attempts``: greedy
        placements tried before the matching), in which the seat may do just what the view says it may: a
        world that does not allow it is sampled again (C7: that he may go out of trumps tells him that his
        partner holds a plain card)."""
        assert self.view.seat is not None
        legal = set(self.view.legal)
        for _ in range(LEGAL_ATTEMPTS):
            world = self._world(rng, attempts)
            if set(world.legal_actions(self.view.seat)) == legal:
                return world
        raise SamplingError("no sampled world lets the seat do what the view says it may")

    def _world(self, rng: random.Random, attempts: int) -> GameState:
        self.sample(rng, attempts)
        view = self.view
        hands = [
            sorted(self.fixed[s] + (slot.cards if slot is not None else [])) for s, slot in enumerate(self.hand_slots)
        ]
        rows = [
            [self._filled(play, slot) for play, slot in zip(trick, slots, strict=True)]
            for trick, slots in zip([*(t.plays for t in view.tricks), view.trick], self.trick_slots, strict=True)
        ]
        tricks = [TrickRecord(tuple(row), t.winner) for row, t in zip(rows, view.tricks, strict=False)]
        return self.variant.computer.build_world(self, hands, tricks, rows[-1], rng)

    @staticmethod
    def _filled(play: SeenPlay, slot: _Slot | None) -> Action:
        cards = tuple(sorted(slot.cards)) if slot is not None else play.cards
        return Action(play.seat, play.kind, cards)

    def stock(self, rng: random.Random) -> list[Card]:
        stock = list(self.stock_slot.cards)
        rng.shuffle(stock)
        if self.stock_trump is not None and self.view.stock_trump_index is not None:
            stock.insert(self.view.stock_trump_index, self.stock_trump)
        return stock


def piles(tricks: list[TrickRecord], units: int, unit: Callable[[int], int]) -> list[list[Card]]:
    """The cards of the deal's tricks so far, by the unit (a team, a seat) of each trick's winner."""
    taken: list[list[Card]] = [[] for _ in range(units)]
    for record in tricks:
        for play in record.plays:
            taken[unit(record.winner)].extend(play.cards)
    return taken


def common(k: Knowledge, hands: list[list[Card]], tricks: list[TrickRecord], trick: list[Action]) -> dict[str, object]:
    """What every game's state takes from the view and the placed cards (a game's builder adds its own)."""
    view = k.view
    return {
        "options": view.options,
        "seed": 0,
        "num_players": view.num_players,
        "deal_no": view.deal_no,
        "dealer": view.dealer,
        "leader": view.leader,
        "to_move": view.to_move,
        "hands": hands,
        "trick": trick,
        "tricks_done": tricks,
        "tricks_taken": list(view.tricks_taken),
        "deals": list(view.deals),
        "totals": list(view.totals),
    }
