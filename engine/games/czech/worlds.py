"""Sampled worlds of Czech Kozel, and what its rules tell a seat about the others' hands: the doubler keeps
the kozel until he plays it (K6)."""

from __future__ import annotations

import random

from engine.actions import Action, Kind
from engine.cards import Card
from engine.games.czech.rules import KOZEL, CzechState
from engine.players.worlds import Knowledge, common, piles
from engine.state import GameState, TrickRecord


def build(
    k: Knowledge, hands: list[list[Card]], tricks: list[TrickRecord], trick: list[Action], rng: random.Random
) -> GameState:
    view = k.view
    return CzechState(
        **common(k, hands, tricks, trick),  # type: ignore[arg-type]
        talon=list(k.talon_slot.cards),
        piles=piles(tricks, view.num_players, lambda s: s),
        doubled=view.doubled,
    )


def infer(k: Knowledge, placed: set[Card]) -> None:
    """K6: the kozel stays in the doubler's hand until he plays it."""
    view = k.view
    if view.doubled:
        doubler = next(p.seat for p in view.deal_log if p.kind is Kind.DOUBLE)
        if KOZEL not in placed:
            k.fixed[doubler].append(KOZEL)
            placed.add(KOZEL)
