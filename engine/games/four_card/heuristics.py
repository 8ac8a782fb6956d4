"""Four-card Kozel's hand-written heuristics: the *basic* computer player, and the playouts of search."""

from __future__ import annotations

from engine.actions import Action, Kind
from engine.cards import Card
from engine.games.four_card.rules import ORDER, POINTS, card_points
from engine.players.contract import Situation


def _fc_keep(card: Card, trump: int) -> int:
    """How much a card is worth keeping: rank, trump, points."""
    return ORDER[card] + (12 if card >> 4 == trump else 0) + POINTS[card] // 2


def _fc_cost(action: Action, trump: int) -> int:
    return sum(_fc_keep(c, trump) for c in action.cards)


def _mask(action: Action) -> int:
    """The cards as one number: the last key of every choice, so that no tie is left to the order of the
    legal list (the compiled core lists them in another order, and plays these heuristics too)."""
    return sum(1 << c for c in action.cards)


def choose(t: Situation, search: bool = False) -> Action | None:
    trump = t.trump if t.trump is not None else 0
    molodka = next((a for a in t.legal if a.kind is Kind.MOLODKA), None)
    partner = (t.seat + 2) % 4
    if not t.trick:  # our lead (F7), or nobody has led yet
        if molodka is not None:
            return molodka  # F10: four cards of one suit lead the trick
        leads = [a for a in t.legal if a.kind is Kind.LEAD]
        if not leads:
            return None

        def lead_score(a: Action) -> tuple[int, int, int]:
            plain = a.cards[0] >> 4 != trump
            return (len(a.cards) * 10 + (5 if plain else 0), min(ORDER[c] for c in a.cards), _mask(a))

        return max(leads, key=lead_score)
    assert t.top is not None
    top_seat = t.trick[t.top].seat
    if molodka is not None and top_seat % 2 != t.seat % 2:
        return molodka  # F10: take over a trick the other team is winning
    if t.to_move != t.seat:
        return None
    beats = [a for a in t.legal if a.kind is Kind.BEAT]
    discards = [a for a in t.legal if a.kind is Kind.DISCARD]
    last = len(t.trick) == 3
    on_table = sum(POINTS[c] for p in t.trick for c in p.cards)
    if top_seat == partner:
        if last:  # the trick is ours: add points to it
            return max(discards, key=lambda a: (card_points(a.cards), -_fc_cost(a, trump), _mask(a)))
        return min(discards, key=lambda a: (_fc_cost(a, trump), _mask(a)))
    if beats:
        best = min(beats, key=lambda a: (_fc_cost(a, trump), _mask(a)))
        uses_trump = any(c >> 4 == trump for c in best.cards)
        if on_table + card_points(best.cards) >= 10 or not uses_trump or last:
            return best
    return min(discards, key=lambda a: (_fc_cost(a, trump), _mask(a)))
