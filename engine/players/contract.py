"""What a game gives its computer players (``Variant.computer``): its heuristics, how a sampled world of it
is built, and how the searches are tuned for it.  The players themselves know no game: they ask the game
of the view they are given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol

from engine.actions import Action, Kind
from engine.cards import Card
from engine.registry import find_variant
from engine.state import GameState, TrickRecord, View

if TYPE_CHECKING:
    from engine.players.worlds import Knowledge


class PlayOnTable(Protocol):
    """A play in the current trick, as an action (search) or as a seen play (a view)."""

    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...


class Situation(NamedTuple):
    """What a heuristic looks at: one seat's hand and choices and the trick on the table."""

    seat: int
    to_move: int | None
    num_players: int
    hand: Sequence[Card]
    legal: Sequence[Action]
    trick: Sequence[PlayOnTable]
    top: int | None  # the index in the trick of the play that is winning it, where the game marks one
    trump: int | None  # the trump suit, where the game has one chosen for the deal

    @classmethod
    def of_view(cls, view: View) -> Situation:
        assert view.seat is not None
        return cls(
            view.seat, view.to_move, view.num_players, view.hand, view.legal, view.trick, view.trick_top, view.trump
        )

    @classmethod
    def of_state(cls, state: GameState, seat: int) -> Situation:
        return cls(
            seat,
            state.to_move,
            state.num_players,
            state.hands[seat],
            state.legal_actions(seat),
            state.trick,
            state._trick_top(),
            getattr(state, "trump", None),
        )


# One of the situation's legal actions, or None when it is not the seat's turn and it prefers to wait; the
# flag says the choice is made inside a search's playout, where announcements before the lead are not made.
Heuristic = Callable[[Situation, bool], Action | None]

# A complete state of the game from a seat's knowledge and the hidden cards just placed: the hands, the
# tricks of the deal so far and the current trick, with their face-down cards filled in.
WorldBuilder = Callable[["Knowledge", list[list[Card]], list[TrickRecord], list[Action], random.Random], GameState]

# What a seat knows of a deal beyond what every game shares (face-up cards, voids, hand sizes): the game adds
# it to the knowledge being built (cards certainly in a hand, voids) before the hidden cards are counted.
Inference = Callable[["Knowledge", set[Card]], None]


def no_inference(knowledge: Knowledge, placed: set[Card]) -> None:
    """A game whose play tells nothing beyond what every game shares."""


# What nobody at the table could know, drawn afresh in a state that is otherwise known whole (a stock's
# order): the honest ceiling of a measurement sees every hand, but not the future.
Unforeseen = Callable[[GameState, random.Random], None]


def nothing_unforeseen(state: GameState, rng: random.Random) -> None:
    """A game with no hidden order: whoever saw every hand knows all that matters."""


# What nobody could know even from a perfect reading of the play, drawn afresh in a state otherwise known
# whole: the unforeseen, and the cards each seat holds that he has not chosen a play with yet (given by seat;
# in a game where hands are refilled, the cards drawn since his last choice).  The ceiling of inference in
# a measurement.
Unrevealed = Callable[[GameState, Sequence[frozenset[Card]], random.Random], None]


class Decision(NamedTuple):
    """A play another seat made earlier in the deal, and the situation he made it in (in a sampled world)."""

    situation: Situation
    played: Action
    face_down: bool  # nobody saw its cards: only what kind of play it was tells anything


# The others' plays of the deal so far in a sampled world, each with the situation its player was in, in the
# order they were made: what ``search.likelihood`` holds against the heuristics.
Decisions = Callable[[GameState, int, random.Random], Iterator[Decision]]


def decisions_without_drawing(world: GameState, seat: int, rng: random.Random) -> Iterator[Decision]:
    """``Decisions`` of a game where nobody draws: a hand at any moment of the deal is the hand now plus what
    its owner played since."""
    tricks = [list(record.plays) for record in world.tricks_done] + [list(world.trick)]
    hands = [list(hand) for hand in world.hands]
    for plays in tricks:
        for play in plays:
            hands[play.seat].extend(play.cards)
    probe = world.fork()
    for number, plays in enumerate(tricks):
        for index, play in enumerate(plays):
            if play.seat != seat and play.kind is Kind.PLAY:
                probe.hands = [sorted(hand) for hand in hands]
                probe.trick = plays[:index]
                probe.tricks_done = world.tricks_done[:number]
                probe.to_move = play.seat
                probe._cache = {}
                yield Decision(Situation.of_state(probe, play.seat), play, face_down=False)
            for card in play.cards:
                hands[play.seat].remove(card)


@dataclass(frozen=True)
class SearchTuning:
    """How the searches play a game, as the arena measured best (docs/players.md)."""

    tree: bool  # the ``strong`` level searches a tree (``engine.players.search``) rather than flat
    weighted: bool  # worlds are weighted by how likely the others' plays make them (``search.likelihood``)
    racing: bool  # the flat search drops candidates that trail clearly (``engine.players.flat``)


@dataclass(frozen=True)
class ComputerPlay:
    heuristic: Heuristic
    build_world: WorldBuilder
    tuning: SearchTuning
    infer: Inference = no_inference
    unforeseen: Unforeseen = nothing_unforeseen
    unrevealed: Unrevealed | None = None  # measured only where hands are refilled during a deal
    decisions: Decisions = decisions_without_drawing


def heuristic(variant: str) -> Heuristic:
    """The game's hand-written heuristics (the ``basic`` level, and the search's playouts)."""
    return find_variant(variant).computer.heuristic


def tuning(variant: str) -> SearchTuning:
    """How the searches play the game."""
    return find_variant(variant).computer.tuning
