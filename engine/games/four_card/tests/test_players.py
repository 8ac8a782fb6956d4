"""Four-card Kozel's computer players: its heuristics (the basic level) and what its rules tell the worlds they
sample, and the searches where its rules ask for something of them."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import Action, Card, GameState, Kind, find_variant
from engine.games.four_card import worlds
from engine.games.four_card.heuristics import choose as four_card_choice
from engine.games.four_card.rules import DECK, STOCK_SIZE, FourCardState
from engine.players.contract import Situation
from engine.players.worlds import Knowledge
from engine.state import Layout
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


def _mixed_deals(seeds: range) -> Iterator[tuple[FourCardState, dict[Action, Situation], dict[Card, int]]]:
    """Every position of one deal per seed, played half by the heuristics and half at random (so that there are
    discards of the shown trump card and molodkas out of turn), with the situation of each play made so far
    and the trick in which a molodka sent each face-up card back (F10)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = find_variant("four_card").new_game(seed)
        assert isinstance(state, FourCardState)
        made: dict[Action, Situation] = {}  # a play taken back by a molodka and made again keeps the last
        sent_back: dict[Card, int] = {}
        while state.deal_no == 0 and state.outcome is None:
            yield state, made, sent_back
            mover = state.to_move
            assert mover is not None
            chosen = four_card_choice(table(state, mover)) if rng.random() < 0.5 else None
            action = chosen or rng.choice(state.all_legal_actions())
            situation = Situation.of_state(state, action.seat)
            made[action] = situation._replace(hand=tuple(situation.hand), trick=tuple(situation.trick))
            if action.kind is Kind.MOLODKA:
                for play in state.trick:
                    if play.kind is not Kind.DISCARD:  # what was face down is still known only to its player
                        sent_back.update((card, len(state.tricks_done)) for card in play.cards)
            state.apply(action)


def _replay_ends_in(world: FourCardState, hands: list[list[Card]], stock: list[Card]) -> FourCardState:
    """The deal dealt from ``hands`` and ``stock`` (the shown card where ``world`` has it shown) and played as
    ``world`` was: by the rules alone, without the code under test."""
    variant = find_variant("four_card")
    assert world.trump_card is not None
    layout = Layout(tuple(tuple(h) for h in hands), tuple(stock), stock.index(world.trump_card))
    replay = variant.new_game(1, stacked=[layout], dealer=(world.leader - 1) % 4)
    for record in [*(r.plays for r in world.tricks_done), tuple(world.trick)]:
        for play in record:
            replay.apply(play)
    assert isinstance(replay, FourCardState)
    return replay


def test_f11_the_true_deal_replayed_gives_each_play_the_situation_it_was_made_in() -> None:
    """F11, F10: from the real deal's hands and stock, ``replayed`` rebuilds every other seat's play (the
    molodkas aside, which whoever holds one plays) in exactly the situation its player was in, face-down
    discards (F8) marked so, and in a game with weighting the real deal explains every play by the basic
    heuristics."""
    asked = molodkas = 0
    for state, made, _ in _mixed_deals(range(1, 121)):
        hands, stock = _dealt(state)
        seat = state.to_move
        assert seat is not None
        decisions = list(worlds.replayed(state, seat, hands, stock))
        plays = [p for r in state.tricks_done for p in r.plays] + list(state.trick)
        assert [d.played for d in decisions] == [p for p in plays if p.seat != seat and p.kind is not Kind.MOLODKA]
        molodkas += any(p.kind is Kind.MOLODKA for p in plays)
        for decision in decisions:
            assert decision.situation == made[decision.played]
            assert decision.face_down == (decision.played.kind is Kind.DISCARD)
            asked += 1
    assert asked > 5000 and molodkas > 0


def _dealt(state: FourCardState) -> tuple[list[list[Card]], list[Card]]:
    """The real deal's hands and stock, from the deal's own shuffle."""
    again = find_variant("four_card").new_game(state.seed)
    assert isinstance(again, FourCardState)
    return [list(h) for h in again.hands], list(again.stock)


def test_f5_f11_every_drawn_start_of_the_deal_leads_to_the_world_it_was_drawn_for() -> None:
    """F11, F5: in sampled worlds of every position, ``drawn`` gives hands and a stock from which the deal as
    played is legal move for move and ends in the world's hands and stock, the shown trump card (F5) drawn
    by the seat that drew it in the world and at one of the stock's middle places (never its first or last
    four); the draws differ from world to world."""
    checked = shown_drawn = molodkas = 0
    starts: set[tuple[Card, ...]] = set()
    for state, _, sent_back in _mixed_deals(range(200, 260)):
        seat = state.to_move
        assert seat is not None
        knowledge = Knowledge(state.view(seat))
        rng = random.Random(state.seed * 100 + len(state.history))
        for _ in range(3):
            world = knowledge.world(rng)
            assert isinstance(world, FourCardState)
            hands, stock = worlds.drawn(world, rng)
            assert sorted(c for h in hands for c in h) + sorted(stock) != [] and len(stock) == STOCK_SIZE
            assert sorted([*(c for h in hands for c in h), *stock]) == sorted(DECK)
            assert world.trump_card is not None and 4 <= stock.index(world.trump_card) < STOCK_SIZE - 4
            end = _replay_ends_in(world, hands, stock)
            assert end.hands == world.hands and end.stock == world.stock
            assert end.trump_card_holder == world.trump_card_holder
            shown_drawn += world.trump_card_holder is not None
            for card, trick in sent_back.items():  # F10: not put face down before it was sent back
                earlier = [p for r in world.tricks_done[:trick] for p in r.plays if p.kind is Kind.DISCARD]
                assert all(card not in p.cards for p in earlier)
                molodkas += 1
            starts.add(tuple(stock))
            checked += 1
    assert checked > 1000 and shown_drawn > 300 and molodkas > 0 and len(starts) > checked // 2


def test_f5_f8_the_shown_card_held_through_a_trick_that_took_every_hand_was_played_in_it() -> None:
    """F5, F8, F10: seat 1 drew the shown 10♦ after the second trick; then a molodka took every card of every
    hand, and seat 1 answered it face down. Nobody saw the 10♦ again, but everybody knows it is in that
    discard: no world of seat 3 has it in seat 1's hand, and every world replays (F11)."""
    variant = find_variant("four_card")
    layout = (
        "7C 8C TC 7H | 7S QS 9C 8H | 9S QC QD QH | KC 8D 9D 9H / "
        "JH 6C TS 7D TD AH AD KH KD 6S JD 6D AS TH JC 8S AC JS KS 6H @ 4"
    )
    state = variant.new_game(1, stacked=[variant.layout(layout)], dealer=2)
    act(state, "3 lead KC", "0 discard 7H", "1 discard 7S", "2 beat QD", "2 lead QC", "3 discard 6C")
    act(state, "0 discard TS", "1 beat 7D", "1 lead 9C", "2 discard 9S", "3 discard 9H", "0 beat TC")
    act(state, "3 molodka 6D 8D 9D AD", "0 discard 7C 8C KD KH", "1 discard 6S QS TD 8H", "2 discard JD JH QH AH")
    assert isinstance(state, FourCardState) and state.trump_card_holder == 1
    shown = Card.parse("TD")
    knowledge = Knowledge(state.view(3))
    rng = random.Random(3)
    for _ in range(100):
        world = knowledge.world(rng)
        assert isinstance(world, FourCardState)
        assert shown in world.tricks_done[3].plays[2].cards
        end = _replay_ends_in(world, *worlds.drawn(world, rng))
        assert end.hands == world.hands
