"""Shared test helpers: scripted play in text notation and the invariants every state must keep."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import random
import sqlite3
import types
import typing
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from bot import callbacks
from bot.present.render import card_label
from engine import Action, Card, GameState, Kind, find_variant
from engine.registry import samples
from storage import Database

GAME_CONFIGS = samples(every=True)  # every configuration each game is played in by the tests


def act(state: GameState, *texts: str) -> GameState:
    """Apply actions written as ``"0 lead AS"`` (see ``Action.parse``)."""
    for text in texts:
        state.apply(Action.parse(text))
    return state


def legal_texts(state: GameState, seat: int) -> set[str]:
    return {a.text() for a in state.legal_actions(seat)}


def cards_in(obj: Any) -> list[Card]:
    """Every card reachable from an object (views are dataclasses, tuples and named tuples)."""
    found: list[Card] = []
    stack = [obj]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Card:
            found.append(item)
            continue
        inside = _INSIDE.get(kind)
        if inside is None:
            inside = _INSIDE[kind] = _inside(kind)
        if inside is _ITEMS:
            stack.extend(item)
        elif inside is _VALUES:
            stack.extend(item.values())
        else:
            stack.extend(getattr(item, name) for name in inside)
    return found


_ITEMS, _VALUES = ("<items>",), ("<values>",)  # a sequence or set's items; a dict's values
_INSIDE: dict[type, tuple[str, ...]] = {}  # what ``cards_in`` looks into, per type: worked out once


def _inside(kind: type) -> tuple[str, ...]:
    if issubclass(kind, tuple | list | set | frozenset):
        return _ITEMS
    if issubclass(kind, dict):
        return _VALUES
    if dataclasses.is_dataclass(kind):
        try:
            hints = typing.get_type_hints(kind)
        except (NameError, TypeError):  # an annotation that cannot be read: look into every field
            hints = {}
        return tuple(f.name for f in dataclasses.fields(kind) if _may_hold_a_card(hints.get(f.name, object)))
    return ()  # a number, a string, an enum member: no card inside


def _may_hold_a_card(hint: Any) -> bool:
    """False only for a type that is numbers, strings or enum members all the way down (``mypy --strict``
    holds the engine to its annotations)."""
    if hint in (int, str, bool, float, type(None)) or (isinstance(hint, type) and issubclass(hint, enum.Enum)):
        return False
    if typing.get_origin(hint) in (tuple, list, set, frozenset, dict, typing.Union, types.UnionType):
        return any(_may_hold_a_card(arg) for arg in typing.get_args(hint) if arg is not Ellipsis)
    return True


def card_buttons_that_play(buttons: Iterable[tuple[str, str]], variant: str) -> dict[str, Action]:
    """Of a hand's buttons (text, data), those labelled with a card alone that play a move at once, by data."""
    found: dict[str, Action] = {}
    for text, data in buttons:
        press = callbacks.parse(data)
        if not isinstance(press, callbacks.Play) or not press.action.cards:
            continue
        face = text.removeprefix("🂠") if press.action.kind is Kind.DISCARD else text  # a discard shows its back
        if face == card_label(press.action.cards[0], variant):
            found[data] = press.action
    return found


def table_cards(state: GameState) -> list[Card]:
    """Every card of the current deal wherever it lies: hands, trick, piles, stock or talon."""
    cards = [c for h in state.hands for c in h]
    cards += [c for a in state.trick for c in a.cards]
    cards += [c for p in getattr(state, "piles", []) for c in p]
    cards += list(getattr(state, "stock", []))
    cards += list(getattr(state, "talon", []))
    return cards


def deck_of(state: GameState) -> tuple[Card, ...]:
    deck = getattr(state, "deck", None)
    return deck if deck is not None else find_variant(state.VARIANT).deck


def check_invariants(state: GameState, views: bool = True) -> None:
    """What must hold after every action of every game: every card of the deck is somewhere, exactly
    once; hands are equal between tricks; and (optionally, it is the slow part) the views leak nothing."""
    if state.outcome is not None:
        return
    assert Counter(table_cards(state)) == Counter(deck_of(state)), "cards not conserved"
    if not state.trick and getattr(state, "giving_back", -1) < 0:
        assert len({len(h) for h in state.hands}) == 1, f"hands of unequal size: {state.hands}"
    if views:
        check_views(state)


SECRET_KINDS = (Kind.DISCARD, Kind.EXCHANGE, Kind.GIVE_BACK)


def check_views(state: GameState) -> None:
    """X1: a seat's view holds its own hand and what was shown face up — nothing else.  What a seat may
    know is worked out here from the rules, independently of the engine's own masking."""
    log = state.history[state.deal_start :]
    public = {c for a in log if a.kind not in SECRET_KINDS for c in a.cards}
    trump_card = getattr(state, "trump_card", None)
    if trump_card is not None:
        public.add(trump_card)  # F5: shown to everybody
    talon = set(getattr(state, "talon", []))
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        seen = set(cards_in(view))
        known = set(public)
        if seat is not None:
            known |= set(state.hands[seat])
            known |= {c for a in log if a.seat == seat for c in a.cards}
            known |= {  # C7: the partners both know the exchanged cards
                c for a in log if a.kind in (Kind.EXCHANGE, Kind.GIVE_BACK) and a.seat % 2 == seat % 2 for c in a.cards
            }
        leaked = seen - known
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))}"
        assert not (seen & talon), "the talon is visible"
        for play in view.deal_log + view.trick:
            if play.kind is Kind.DISCARD:
                may_see = play.seat == seat
            elif play.kind in (Kind.EXCHANGE, Kind.GIVE_BACK):
                may_see = seat is not None and play.seat % 2 == seat % 2
            else:
                may_see = True
            if not may_see:
                assert play.cards == () and play.count > 0, f"seat {seat} sees a face-down {play}"
        if seat is not None:
            assert view.hand == tuple(state.hands[seat])
            assert set(view.legal) == set(state.legal_actions(seat))


def first_legal(state: GameState) -> Action:
    """A deterministic choice: the first legal action of the seat to move (else of any seat)."""
    if state.to_move is not None and state.legal_actions(state.to_move):
        return state.legal_actions(state.to_move)[0]
    return state.all_legal_actions()[0]


def play_deal(state: GameState) -> None:
    """Finish the current deal with deterministic first choices (no redeal or molodka)."""
    deals = len(state.deals)
    while len(state.deals) == deals and state.outcome is None:
        choices = [a for a in state.legal_actions(state.to_move or 0) if a.kind not in (Kind.REDEAL,)]
        state.apply(choices[0] if choices else first_legal(state))


def doubled_czech(players: int) -> GameState:
    """Czech Kozel for ``players``, its first deal doubled (K6) by the first seed that offers the double."""
    for seed in range(40):
        state = find_variant("czech").new_game(seed, {"players": players})
        doubles = [a for a in state.all_legal_actions() if a.kind is Kind.DOUBLE]
        if doubles:
            state.apply(doubles[0])
            return state
    raise AssertionError("no deal offered the double")


DIGEST_DEALS = 40  # deals of seeded random play a pin hashes


def play_digest(name: str, options: dict[str, Any], seed: int, deals: int) -> str:
    """Seeded random play over every seat's legal actions, ``deals`` deals in all, hashed."""
    variant = find_variant(name)
    opts = variant.options(options)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    done = 0
    step = 0
    while done < deals:
        state = variant.new_game(rng.getrandbits(48), opts)
        while state.outcome is None and done + len(state.deals) < deals:
            legal = state.all_legal_actions()
            digest.update(" ".join(a.text() for a in legal).encode())
            digest.update(repr(state.hands).encode())
            if step % 7 == 0 and state.to_move is not None:
                digest.update(repr(state.view(state.to_move)).encode())
            action = rng.choice(legal)
            digest.update(action.encode().encode())
            state.apply(action)
            step += 1
        digest.update(repr(state.deals).encode())
        digest.update(repr(state.outcome).encode())
        digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        done += len(state.deals)
    return digest.hexdigest()


def ascii_hands(hands: list[list[Any]]) -> list[str]:
    return [" ".join(c.ascii for c in hand) for hand in hands]


def slow_commits(
    db: Database,
    seconds: float,
    sleep: Callable[[float], Awaitable[None]],
    fail: sqlite3.OperationalError | None = None,
) -> list[str]:
    """A slow disk: each COMMIT of ``db``'s connection takes ``seconds`` more (waited with ``sleep``, its lock
    held meanwhile, as an fsync would hold it), then fails with ``fail`` if given; returns a log that gets
    "commit" once each COMMIT is done."""
    conn, log = db.conn, list[str]()
    execute = conn.execute

    async def slowly(sql: str, *args: Any, **kwargs: Any) -> Any:
        if sql != "COMMIT":
            return await execute(sql, *args, **kwargs)
        await sleep(seconds)
        if fail is not None:
            raise fail
        result = await execute(sql, *args, **kwargs)
        log.append("commit")
        return result

    setattr(conn, "execute", slowly)  # noqa: B010 (an instance's method replaced: mypy refuses an assignment)
    return log
