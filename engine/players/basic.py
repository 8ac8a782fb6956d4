"""Hand-written heuristics for each game: the *basic* computer player, and the playout policy of search.

Each function sees one seat's table — its hand, its legal actions and the face-up trick — and returns one of
the legal actions, or None when it is not the seat's turn and it prefers to wait (an out-of-turn molodka,
redeal or double it does not want now).  Only the engine's legal actions are ever returned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, Protocol

from engine import classic, czech, four_card
from engine.actions import Action, Kind
from engine.cards import Card, Rank, Suit
from engine.core import GameState, View


class Play(Protocol):
    """A play in the current trick, as an action (search) or as a seen play (a view)."""

    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> Kind: ...
    @property
    def cards(self) -> tuple[Card, ...]: ...


class Table(NamedTuple):
    """What a heuristic looks at: one seat's hand and choices and the trick on the table."""

    seat: int
    to_move: int | None
    num_players: int
    hand: Sequence[Card]
    legal: Sequence[Action]
    trick: Sequence[Play]
    top: int | None  # four-card Kozel: index of the current top in the trick
    trump: int | None  # four-card Kozel: the trump suit

    @classmethod
    def of_view(cls, view: View) -> Table:
        assert view.seat is not None
        return cls(
            view.seat, view.to_move, view.num_players, view.hand, view.legal, view.trick, view.trick_top, view.trump
        )

    @classmethod
    def of_state(cls, state: GameState, seat: int) -> Table:
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


# ---------------------------------------------------------------------------------------------------------
# Four-card Kozel


def _fc_keep(card: Card, trump: int) -> int:
    """How much a card is worth keeping: rank, trump, points."""
    return four_card.ORDER[card] + (12 if card >> 4 == trump else 0) + four_card.POINTS[card] // 2


def _fc_cost(action: Action, trump: int) -> int:
    return sum(_fc_keep(c, trump) for c in action.cards)


def four_card_choice(t: Table, search: bool = False) -> Action | None:
    trump = t.trump if t.trump is not None else 0
    molodka = next((a for a in t.legal if a.kind is Kind.MOLODKA), None)
    partner = (t.seat + 2) % 4
    if not t.trick:  # our lead (F7), or nobody has led yet
        if molodka is not None:
            return molodka  # F10: four cards of one suit lead the trick
        leads = [a for a in t.legal if a.kind is Kind.LEAD]
        if not leads:
            return None

        def lead_score(a: Action) -> tuple[int, int]:
            plain = a.cards[0] >> 4 != trump
            return (len(a.cards) * 10 + (5 if plain else 0), min(four_card.ORDER[c] for c in a.cards))

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
    on_table = sum(four_card.POINTS[c] for p in t.trick for c in p.cards)
    if top_seat == partner:
        if last:  # the trick is ours: add points to it
            return max(discards, key=lambda a: (four_card.card_points(a.cards), -_fc_cost(a, trump)))
        return min(discards, key=lambda a: _fc_cost(a, trump))
    if beats:
        best = min(beats, key=lambda a: _fc_cost(a, trump))
        uses_trump = any(c >> 4 == trump for c in best.cards)
        if on_table + four_card.card_points(best.cards) >= 10 or not uses_trump or last:
            return best
    return min(discards, key=lambda a: _fc_cost(a, trump))


# ---------------------------------------------------------------------------------------------------------
# Classic Kozel


def _cl_keep(card: Card) -> int:
    return classic.POWER[card] + classic.POINTS[card]


def classic_choice(t: Table, search: bool = False) -> Action | None:
    kinds = {a.kind for a in t.legal}
    if Kind.GIVE_BACK in kinds:  # C7: give back the plain card we need least
        return min(t.legal, key=lambda a: _cl_keep(a.cards[0]))
    trumps = [c for c in t.hand if classic.is_trump(c)]
    if not search:  # before the first lead (C6, C7); never inside a playout
        if Kind.REDEAL in kinds and len(trumps) <= 2:
            return next(a for a in t.legal if a.kind is Kind.REDEAL)  # C6: a poor hand
        exchange = next((a for a in t.legal if a.kind is Kind.EXCHANGE), None)
        if exchange is not None and classic.POWER[exchange.cards[0]] < classic.POWER[classic.QUEEN_OF_CLUBS] - 3:
            return exchange  # C7: a lone low trump serves the partner better
    plays = [a for a in t.legal if a.kind is Kind.PLAY]
    if t.to_move != t.seat or not plays:
        return None
    if not t.trick:
        plain = [a for a in plays if not classic.is_trump(a.cards[0])]
        if len(trumps) >= 4 and len(plain) < len(plays):  # draw the other trumps with the best one
            return max((a for a in plays if classic.is_trump(a.cards[0])), key=lambda a: classic.POWER[a.cards[0]])
        aces = [a for a in plain if a.cards[0].rank is Rank.ACE]
        if aces:
            return aces[0]
        if plain:  # the lowest card of the shortest plain suit, to be free to trump it soon
            length = {s: sum(1 for c in t.hand if classic.ESUIT[c] == s) for s in range(4)}
            return min(plain, key=lambda a: (length[classic.ESUIT[a.cards[0]]], classic.POWER[a.cards[0]]))
        return min(plays, key=lambda a: _cl_keep(a.cards[0]))
    cards = {p.cards[0]: p.seat for p in t.trick}
    queen_by = cards.get(classic.QUEEN_OF_CLUBS)
    six = next((a for a in plays if a.cards[0] == classic.SIX_OF_CLUBS), None)
    if six is not None and queen_by is not None and queen_by % 2 != t.seat % 2:
        return six  # C12: catch the queen
    led = classic.ESUIT[t.trick[0].cards[0]]
    power = classic.POWER
    counted = (led, classic.TRUMP_SUIT)
    best = max((p for p in t.trick if classic.ESUIT[p.cards[0]] in counted), key=lambda p: power[p.cards[0]])
    winner, top = best.seat, best.cards[0]  # C11: the trick's winner so far
    last = len(t.trick) == 3
    if winner % 2 == t.seat % 2:
        safe = last or classic.POWER[top] >= classic.POWER[classic.JACK_OF_CLUBS] or top.rank is Rank.ACE
        if safe:  # the trick is ours: add points, not high trumps
            return max(plays, key=lambda a: classic.POINTS[a.cards[0]] - (20 if classic.is_trump(a.cards[0]) else 0))
        return min(plays, key=lambda a: _cl_keep(a.cards[0]))
    winning = [a for a in plays if classic.ESUIT[a.cards[0]] in counted and power[a.cards[0]] > power[top]]
    if winning:
        if last:
            return max(winning, key=lambda a: classic.POINTS[a.cards[0]] * 10 - classic.POWER[a.cards[0]])
        return min(winning, key=lambda a: classic.POWER[a.cards[0]])
    return min(plays, key=lambda a: (classic.POINTS[a.cards[0]], classic.POWER[a.cards[0]]))


# ---------------------------------------------------------------------------------------------------------
# Czech Kozel


def _danger(card: Card) -> int:
    """How much a card risks penalties if kept: the kozel first, then hearts, then high cards."""
    return czech.PENALTY[card] * 20 + int(card.rank)


def czech_choice(t: Table, search: bool = False) -> Action | None:
    double = next((a for a in t.legal if a.kind is Kind.DOUBLE), None)
    if double is not None and not search:
        spades = [c for c in t.hand if c.suit is Suit.SPADES]
        if len(spades) >= 4:
            return double  # K6: the kozel is well guarded, the others will pay twice
    plays = [a for a in t.legal if a.kind is Kind.PLAY]
    if t.to_move != t.seat or not plays:
        return None
    if not t.trick:  # lead the lowest card, hearts last, never the kozel by choice
        return min(plays, key=lambda a: (a.cards[0] == czech.KOZEL, a.cards[0].suit is Suit.HEARTS, a.cards[0].rank))
    led = t.trick[0].cards[0] >> 4
    best = max(p.cards[0] for p in t.trick if p.cards[0] >> 4 == led)
    following = plays[0].cards[0] >> 4 == led
    last = len(t.trick) == t.num_players - 1
    if not following:  # K4: free to throw the worst card away
        return max(plays, key=lambda a: _danger(a.cards[0]))
    under = [a for a in plays if a.cards[0] < best]
    if under:
        return max(under, key=lambda a: (a.cards[0] == czech.KOZEL, a.cards[0]))
    if last:  # we take it anyway: take it with the highest card
        return max(plays, key=lambda a: (a.cards[0] != czech.KOZEL, a.cards[0]))
    return min(plays, key=lambda a: (a.cards[0] == czech.KOZEL, a.cards[0]))


CHOICES: dict[str, Callable[[Table, bool], Action | None]] = {
    "four_card": four_card_choice,
    "classic": classic_choice,
    "czech": czech_choice,
}
