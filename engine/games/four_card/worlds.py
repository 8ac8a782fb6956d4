"""Sampled worlds of four-card Kozel: the stock's hidden order drawn afresh, the shown trump card where the
view puts it (F5); and the hands the others held when they played, rebuilt in a world (F11)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from engine.actions import Action, Kind
from engine.cards import Card
from engine.games.four_card.rules import HAND_SIZE, STOCK_SIZE, FourCardState
from engine.players.contract import Decision, Situation
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
        trump_card_place=view.trump_card_place if view.trump_card_place is not None else -1,
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
    unrevealed(state, [frozenset()] * len(state.hands), rng)


def unrevealed(state: GameState, unseen: Sequence[frozenset[Card]], rng: random.Random) -> None:
    """F11: the cards each seat drew since he last chose a play (``unseen``, by seat) and the stock dealt
    afresh together, every hand keeping its size and the stock the shown trump card's place (F5); a shown card
    that was drawn stays with its holder, as everybody saw who drew it."""
    assert isinstance(state, FourCardState)
    shown = state.trump_card if state.trump_card is not None and state.trump_card_holder is None else None
    held = state.trump_card if state.trump_card_holder is not None else None
    place = state.stock.index(shown) if shown is not None else -1
    hidden = [sorted(c for c in hand if c in unseen[s] and c != held) for s, hand in enumerate(state.hands)]
    # sorted: what the order was is not an input of what it becomes
    pool = sorted([c for cards in hidden for c in cards] + [c for c in state.stock if c != shown])
    rng.shuffle(pool)
    for seat, cards in enumerate(hidden):
        kept = [c for c in state.hands[seat] if c not in cards]
        state.hands[seat] = sorted(kept + pool[: len(cards)])
        del pool[: len(cards)]
    if shown is not None:
        pool.insert(place, shown)
    state.stock = pool
    state._cache.clear()


def decisions(world: GameState, seat: int, rng: random.Random) -> Iterator[Decision]:
    """The others' plays of the deal so far in ``world``, each with the situation it was made in: the deal
    replayed from its start, the draws (F11) that nobody but the drawer saw chosen by ``drawn``.  A molodka
    (F10) is played by whoever holds one, so it tells nothing and is not asked about."""
    assert isinstance(world, FourCardState)
    hands, stock = drawn(world, rng)
    return replayed(world, seat, hands, stock)


def infer(k: Knowledge, placed: set[Card]) -> None:
    """F5, F11: the shown trump card, once drawn, was drawn after a trick everybody saw; its holder cannot
    have put it face down before then.  F7, F8: a trick whose lead had as many cards as the hands held took
    every card of every hand, so a card known to be in a hand (the shown one, or one a molodka sent back)
    before such a trick is no longer in it after."""
    view = k.view
    leads = [t.plays[0].count for t in view.tricks]
    counts = draw_counts(leads)
    if view.trump_card in k.owner_of and view.trump_card_place is not None:
        k.earliest[view.trump_card] = drawn_after(counts, view.trump_card_place) + 1
    sizes = [HAND_SIZE]  # a hand's size at the start of each trick
    for lead, count in zip(leads, counts, strict=True):
        sizes.append(sizes[-1] - lead + count)
    whole = [t for t, lead in enumerate(leads) if lead == sizes[t]]
    if view.trick and view.trick[0].count == sizes[-1]:
        whole.append(len(leads))  # the current trick, for those who have played to it
    for card, owner in k.owner_of.items():
        held_from = k.earliest.get(card, 0)
        played = [t for t in whole if t >= held_from and (t < len(leads) or any(p.seat == owner for p in view.trick))]
        if played:
            k.latest[card] = played[0]


def draw_counts(leads: list[int]) -> list[int]:
    """How many cards each player drew after each trick of the deal so far, from how many cards each trick's
    lead had (F11: as many as he played, while the stock lasts)."""
    counts = []
    left = STOCK_SIZE
    for lead in leads:
        count = min(lead, left // 4)
        counts.append(count)
        left -= 4 * count
    return counts


def drawn_after(counts: list[int], place: int) -> int:
    """The trick after which the card at ``place`` in the stock as dealt was drawn."""
    start = 0
    for trick, count in enumerate(counts):
        start += 4 * count
        if place < start:
            return trick
    raise ValueError(f"the card at {place} of the stock has not been drawn")


def drawn(world: FourCardState, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """A start of the deal that leads to ``world``: the hands dealt and the stock's order.  Backwards from the
    hands at the start of the current trick, each player's draws after a trick are chosen at random among the
    cards he held after it, but the shown trump card (F5), drawn from the place everybody saw it at."""
    tricks = world.tricks_done
    counts = draw_counts([len(record.plays[0].cards) for record in tricks])
    assert STOCK_SIZE - 4 * sum(counts) == len(world.stock), "the draws do not account for the stock"
    shown, holder = world.trump_card, world.trump_card_holder
    forced: tuple[int, int] | None = None  # (trick, round) of the shown card's draw
    if shown is not None and holder is not None:
        trick = drawn_after(counts, world.trump_card_place)
        place = world.trump_card_place - 4 * sum(counts[:trick])
        assert (tricks[trick].winner + place) % 4 == holder, "the shown card's holder did not draw its place"
        forced = (trick, place // 4)
    hands = [list(hand) for hand in world.hands]
    for play in world.trick:
        hands[play.seat].extend(play.cards)
    draws: list[list[list[Card]]] = [[[] for _ in range(4)] for _ in tricks]
    for t in reversed(range(len(tricks))):
        for s in range(4):
            count = counts[t]
            if forced is not None and forced[0] == t and s == holder:
                assert shown is not None
                chosen = rng.sample([c for c in hands[s] if c != shown], count - 1)
                chosen.insert(forced[1], shown)
            else:
                chosen = rng.sample([c for c in hands[s] if c != shown], count)
            draws[t][s] = chosen
            for card in chosen:
                hands[s].remove(card)
        for play in tricks[t].plays:
            hands[play.seat].extend(play.cards)
    stock = [
        draws[t][(record.winner + i) % 4][r]
        for t, record in enumerate(tricks)
        for r in range(counts[t])
        for i in range(4)
    ]
    return hands, stock + list(world.stock)


def replayed(world: FourCardState, seat: int, hands: list[list[Card]], stock: list[Card]) -> Iterator[Decision]:
    """The others' plays in ``world``, replayed from a start of the deal (``drawn``)."""
    state = world.fork()
    state.hands = [sorted(hand) for hand in hands]
    state.stock = list(stock)
    state.trump_card_holder = None
    state.piles = [[], []]
    state.tricks_taken = [0, 0]
    state.tricks_done = []
    state._new_trick(state.leader)
    state._cache = {}
    for plays in [*(record.plays for record in world.tricks_done), tuple(world.trick)]:
        for play in plays:
            if play.seat != seat and play.kind is not Kind.MOLODKA:
                situation = Situation.of_state(state, play.seat)
                situation = situation._replace(hand=tuple(situation.hand), trick=tuple(situation.trick))
                yield Decision(situation, play, face_down=play.kind is Kind.DISCARD)
            state.apply(play)
