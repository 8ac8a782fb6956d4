"""Sampled worlds of four-card Kozel: the stock's hidden order drawn afresh, the shown trump card where the
view puts it (F5)."""

from __future__ import annotations

import random

from engine.actions import Action, Kind
from engine.cards import Card
from engine.games.four_card.rules import FourCardState
from engine.players.worlds import Knowledge, common, piles
from engine.state import GameState, TrickRecord


def build(
    k: Knowledge, hands: list[list[Card]], tricks: list[TrickRecord], trick: list[Action], rng: random.Random
) -> GameState:
    view = k.view
    assert view.trump is not None
    return FourCardState(
        **common(k, hands, tricks, trick),  # type: ignore[arg-type]
        stock=k.stock(rng),
        trump=view.trump,
        trump_card=view.trump_card,
        trump_card_holder=view.trump_card_holder,
        piles=piles(tricks, 2, lambda s: s % 2),
        trick_leader=tricks[-1].winner if tricks else view.leader,
        lead_seat=trick[0].seat if trick else -1,
        molodka=bool(trick) and trick[0].kind is Kind.MOLODKA,
        top=view.trick_top if view.trick_top is not None else -1,
        answered=max(len(trick) - 1, 0),
        eggs=view.eggs_pending,
    )


def unforeseen(state: GameState, rng: random.Random) -> None:
    """The stock's order drawn afresh, the shown trump card kept at its place (F5): what nobody could know."""
    assert isinstance(state, FourCardState)
    shown = state.trump_card if state.trump_card is not None and state.trump_card_holder is None else None
    rest = sorted(c for c in state.stock if c != shown)  # what it was is not an input of what it becomes
    rng.shuffle(rest)
    if shown is not None:
        rest.insert(state.stock.index(shown), shown)
    state.stock = rest
