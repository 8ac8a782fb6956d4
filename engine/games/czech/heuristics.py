"""Czech Kozel's hand-written heuristics: the *basic* computer player, and the playouts of search."""

from __future__ import annotations

from engine.actions import Action, Kind
from engine.cards import Card, Suit
from engine.games.czech.rules import KOZEL, PENALTY
from engine.players.contract import Situation


def _danger(card: Card) -> int:
    """How much a card risks penalties if kept: the kozel first, then hearts, then high cards."""
    return PENALTY[card] * 20 + int(card.rank)


def choose(t: Situation, search: bool = False) -> Action | None:
    double = next((a for a in t.legal if a.kind is Kind.DOUBLE), None)
    if double is not None and not search:
        spades = [c for c in t.hand if c.suit is Suit.SPADES]
        if len(spades) >= 4:
            return double  # K6: the kozel is well guarded, the others will pay twice
    plays = [a for a in t.legal if a.kind is Kind.PLAY]
    if t.to_move != t.seat or not plays:
        return None
    if not t.trick:  # lead the lowest card, hearts last, never the kozel by choice
        return min(plays, key=lambda a: (a.cards[0] == KOZEL, a.cards[0].suit is Suit.HEARTS, a.cards[0].rank))
    led = t.trick[0].cards[0] >> 4
    best = max(p.cards[0] for p in t.trick if p.cards[0] >> 4 == led)
    following = plays[0].cards[0] >> 4 == led
    last = len(t.trick) == t.num_players - 1
    if not following:  # K4: free to throw the worst card away
        return max(plays, key=lambda a: _danger(a.cards[0]))
    under = [a for a in plays if a.cards[0] < best]
    if under:
        return max(under, key=lambda a: (a.cards[0] == KOZEL, a.cards[0]))
    if last:  # we take it anyway: take it with the highest card
        return max(plays, key=lambda a: (a.cards[0] != KOZEL, a.cards[0]))
    return min(plays, key=lambda a: (a.cards[0] == KOZEL, a.cards[0]))
