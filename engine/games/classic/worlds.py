"""Sampled worlds of classic Kozel, and what its rules tell a seat about the others' hands: the exchanged
cards (C7) and the A♦ of the first deal's leader (C8)."""

from __future__ import annotations

import random

from engine.actions import Action, Kind
from engine.cards import Card
from engine.games.classic.rules import ACE_OF_DIAMONDS, TRUMP_SUIT, ClassicState
from engine.players.worlds import Knowledge, common, piles
from engine.state import GameState, TrickRecord


def build(
    k: Knowledge, hands: list[list[Card]], tricks: list[TrickRecord], trick: list[Action], rng: random.Random
) -> GameState:
    view = k.view
    exchanged = [p.seat % 2 for p in view.deal_log if p.kind is Kind.GIVE_BACK]
    pending = [p.seat for p in view.deal_log if p.kind is Kind.EXCHANGE and p.seat % 2 not in exchanged]
    return ClassicState(
        **common(k, hands, tricks, trick),  # type: ignore[arg-type]
        piles=piles(tricks, 2, lambda s: s % 2),
        banned=list(view.trump_lead_banned),
        exchanged=exchanged,
        giving_back=(pending[0] + 2) % 4 if pending else -1,
        eggs_pending=view.eggs_pending,
        eggs=sum(d.eggs for d in view.deals),
    )


def infer(k: Knowledge, placed: set[Card]) -> None:
    """C7: the partners know both exchanged cards, and the exchanger holds no trump; C8: in the first deal
    the holder of the A♦ leads, so he holds it until he does."""
    view = k.view
    seat = view.seat
    assert seat is not None
    if view.exchange is not None:
        given, back = view.exchange
        exchanger = next(p.seat for p in view.deal_log if p.kind is Kind.EXCHANGE and p.seat % 2 == seat % 2)
        partner = (exchanger + 2) % 4
        for card, holder in ((given, partner), (back, exchanger)):
            if card not in placed and holder != seat:
                k.fixed[holder].append(card)
                placed.add(card)
    for play in view.deal_log:
        if play.kind is Kind.EXCHANGE:
            k.voids[play.seat].add(TRUMP_SUIT)  # he gave away his only trump
    if view.deal_no == 0 and ACE_OF_DIAMONDS not in placed and view.leader != seat:
        k.fixed[view.leader].append(ACE_OF_DIAMONDS)
        placed.add(ACE_OF_DIAMONDS)
