"""Four-card Kozel's computer players: its heuristics (the basic level) and what its rules tell the worlds they
sample, and the searches where its rules ask for something of them."""

from __future__ import annotations

import random

from engine import Card, GameState, Kind, find_variant
from engine.games.four_card.heuristics import choose as four_card_choice
from engine.players.contract import Situation
from engine.players.worlds import Knowledge
from tests.helpers import act


def table(state: GameState, seat: int) -> Situation:
    return Situation.of_view(state.view(seat))


def test_f10_basic_takes_over_with_a_molodka() -> None:
    """F10: holding four cards of one suit while the other team leads, the basic player plays them."""
    layout = "6S 7S 8S 9S | AH KH QH JH | 6C 7C 8C 9C | 6D 7D 8D 9D / ... @ 5"
    variant = find_variant("four_card")
    state = variant.new_game(1, stacked=[variant.layout(layout)], dealer=0)
    seat = state.to_move
    assert seat == 1
    choice = four_card_choice(table(state, 1))
    assert choice is not None and choice.kind is Kind.MOLODKA
    act(state, "1 molodka AH KH QH JH")
    # seat 2's own four clubs may not replace the original leader's molodka (F10 priority): it answers
    answer = four_card_choice(table(state, 2))
    assert answer is not None and answer.kind is not Kind.MOLODKA
    assert answer in state.legal_actions(2)


def test_f10_cards_sent_back_by_a_molodka_stay_with_their_players_in_every_world() -> None:
    """F10/X1: after a molodka the cards that were on the table went back face up to their hands: seat 1
    (who sees them) samples worlds where seat 0 holds the 6♠ and seat 2 the J♠ — never anyone else."""
    variant = find_variant("four_card")
    layout = "6S 7S 8S TD | 6C 7C 8C 9C | JS QS 6D 7D | 6H 7H 8H 9H / AD ... @ 0"
    state = variant.new_game(1, stacked=[variant.layout(layout)], dealer=3)
    act(state, "0 lead 6S", "1 discard 6C", "2 beat JS", "3 molodka 6H 7H 8H 9H")
    knowledge = Knowledge(state.view(1))
    rng = random.Random(9)
    for _ in range(50):
        world = knowledge.world(rng)
        assert Card.parse("6S") in world.hands[0]
        assert Card.parse("JS") in world.hands[2]
        assert world.trick == state.trick
