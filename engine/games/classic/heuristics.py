"""Classic Kozel's hand-written heuristics: the *basic* computer player, and the playouts of search."""

from __future__ import annotations

from engine.actions import Action, Kind
from engine.cards import Card, Rank
from engine.games.classic.rules import (
    ESUIT,
    JACK_OF_CLUBS,
    POINTS,
    POWER,
    QUEEN_OF_CLUBS,
    SIX_OF_CLUBS,
    TRUMP_SUIT,
    is_trump,
)
from engine.players.contract import Situation


def _cl_keep(card: Card) -> int:
    return POWER[card] + POINTS[card]


def choose(t: Situation, search: bool = False) -> Action | None:
    kinds = {a.kind for a in t.legal}
    if Kind.GIVE_BACK in kinds:  # C7: give back the plain card we need least
        return min(t.legal, key=lambda a: _cl_keep(a.cards[0]))
    trumps = [c for c in t.hand if is_trump(c)]
    if not search:  # before the first lead (C6, C7); never inside a playout
        if Kind.REDEAL in kinds and len(trumps) <= 2:
            return next(a for a in t.legal if a.kind is Kind.REDEAL)  # C6: a poor hand
        exchange = next((a for a in t.legal if a.kind is Kind.EXCHANGE), None)
        if exchange is not None and POWER[exchange.cards[0]] < POWER[QUEEN_OF_CLUBS] - 3:
            return exchange  # C7: a lone low trump serves the partner better
    plays = [a for a in t.legal if a.kind is Kind.PLAY]
    if t.to_move != t.seat or not plays:
        return None
    if not t.trick:
        plain = [a for a in plays if not is_trump(a.cards[0])]
        if len(trumps) >= 4 and len(plain) < len(plays):  # draw the other trumps with the best one
            return max((a for a in plays if is_trump(a.cards[0])), key=lambda a: POWER[a.cards[0]])
        aces = [a for a in plain if a.cards[0].rank is Rank.ACE]
        if aces:
            return aces[0]
        if plain:  # the lowest card of the shortest plain suit, to be free to trump it soon
            length = {s: sum(1 for c in t.hand if ESUIT[c] == s) for s in range(4)}
            return min(plain, key=lambda a: (length[ESUIT[a.cards[0]]], POWER[a.cards[0]]))
        return min(plays, key=lambda a: _cl_keep(a.cards[0]))
    cards = {p.cards[0]: p.seat for p in t.trick}
    queen_by = cards.get(QUEEN_OF_CLUBS)
    six = next((a for a in plays if a.cards[0] == SIX_OF_CLUBS), None)
    if six is not None and queen_by is not None and queen_by % 2 != t.seat % 2:
        return six  # C12: catch the queen
    led = ESUIT[t.trick[0].cards[0]]
    power = POWER
    counted = (led, TRUMP_SUIT)
    best = max((p for p in t.trick if ESUIT[p.cards[0]] in counted), key=lambda p: power[p.cards[0]])
    winner, top = best.seat, best.cards[0]  # C11: the trick's winner so far
    last = len(t.trick) == 3
    if winner % 2 == t.seat % 2:
        safe = last or POWER[top] >= POWER[JACK_OF_CLUBS] or top.rank is Rank.ACE
        if safe:  # the trick is ours: add points, not high trumps
            return max(plays, key=lambda a: POINTS[a.cards[0]] - (20 if is_trump(a.cards[0]) else 0))
        return min(plays, key=lambda a: _cl_keep(a.cards[0]))
    winning = [a for a in plays if ESUIT[a.cards[0]] in counted and power[a.cards[0]] > power[top]]
    if winning:
        if last:
            return max(winning, key=lambda a: POINTS[a.cards[0]] * 10 - POWER[a.cards[0]])
        return min(winning, key=lambda a: POWER[a.cards[0]])
    return min(plays, key=lambda a: (POINTS[a.cards[0]], POWER[a.cards[0]]))
