"""End to end: what players see and feel at the table (issue 15), over the embedded Bot API server."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.i18n import tn
from bot.present.base import Seating, teams_line
from bot.present.render import card_label
from engine import Kind
from engine.games.four_card.rules import FourCardState
from playground.botapi import Message
from tests.e2e import (
    GROUP,
    Person,
    World,
    button,
    configure,
    eventually,
    one_move,
    open_game,
    play_turn,
    replay,
    running_world,
)


async def test_the_hand_stays_under_the_finger_of_a_player_who_is_choosing(tmp_path: Path) -> None:
    """Four-card Kozel with a 0.3 s turn notification: the player whose turn came taps cards to choose them
    for four times that long.  His hand message is edited in place, never deleted and sent again, and his
    taps count as activity: no notification is sent to a player who is using his hand."""
    async with running_world(tmp_path, turn_ping_seconds=0.3) as world:
        server, runner = world.server, world.runner
        people, _ = await open_game(world, "/newgame 4", 4)
        chooser, hand, toggles = await one_who_chooses(people, random.Random(15), runner.settle)
        assert "👉" in hand.text
        before = len(server.bot_messages(chooser.user_id))
        for tap in range(10):  # 10 taps, 0.12 s apart: 1.2 s, four times the notification delay
            await chooser.press(hand, toggles[tap % 2 if len(toggles) > 1 else 0])
            await asyncio.sleep(0.12)
            await runner.settle()
            now, _, _ = chooser.options()
            assert now is not None and now.message_id == hand.message_id, "the hand moved while he chose"
            assert not server.messages[(chooser.user_id, hand.message_id)].deleted
            hand = now
        await asyncio.sleep(0.6)
        await runner.settle()
        assert not server.messages[(chooser.user_id, hand.message_id)].deleted
        assert len(server.bot_messages(chooser.user_id)) == before  # no notification: he was pressing
        assert server.violations == []


async def one_who_chooses(
    people: list[Person],
    rng: random.Random,
    settle: Callable[[], Awaitable[None]],
    wanted: Callable[[Message], bool] = lambda hand: True,
) -> tuple[Person, Message, list[str]]:
    """Play on until the player to move has a card to choose (a card of one use plays with one tap) in a hand
    that is ``wanted``: him, his hand and its card toggles."""
    for _ in range(100):
        mover = next(p for p in people if p.my_turn())
        hand, _, toggles = mover.options()
        assert hand is not None
        if toggles and wanted(hand):
            return mover, hand, toggles
        assert await play_turn(mover, rng)
        await settle()
    raise AssertionError("nobody had a card to choose")


async def test_the_card_that_completes_a_trick_is_shown_with_who_took_it(world: World) -> None:
    """Classic Kozel: after a trick's last card, the group's table and every hand keep the finished trick,
    that card included, with who took it and the tricks taken per team, until the next lead; the deal's
    last trick stays on the closed table and hands.  (The text table; the picture's is in test_e2e_pictures.)"""
    await configure(world, table="text")
    people, game = await open_game(world, "/newgame classic", 4)
    rng = random.Random(2)
    seating = Seating(tuple(p.name for p in people), "Friends")
    seen_mid_deal = False
    table_id, hands = 0, dict[int, int]()
    while True:
        mover, before, row, state = await one_move(world, people, game.game_id, rng)
        completing = state.history[-1]
        if completing.kind is not Kind.PLAY:  # a redeal (C6): no trick
            continue
        label = card_label(completing.cards[0], "classic")
        if len(state.deals) > len(before.deals):  # the deal's last trick
            closed = world.server.messages[(GROUP, table_id)].text
            # C12: a caught queen ends the deal on the spot, on the trick's last card too: nobody took it
            stopped = "queen_caught" in state.deals[-1].events
            assert ("On the table:" if stopped else "Trick taken by") in closed, closed
            assert f"{mover.name}: {label}" in closed, closed
            for person in people:
                old_hand = world.server.messages[(person.user_id, hands[person.user_id])]
                assert f"{mover.name}: {label}" in old_hand.text, old_hand.text
                assert not old_hand.deleted, f"{person.name}'s closed hand of the deal was deleted"
                assert old_hand.markup is None, old_hand  # closed: no button of the old deal stays
            break
        assert row.table_message_id is not None
        table_id = row.table_message_id
        hands.update({p.user_id: m.message_id for p in people if (m := p.hand()) is not None})
        table = world.server.messages[(GROUP, table_id)].text
        if sum(state.tricks_taken) > sum(before.tricks_taken) and not state.trick:
            winner = seating.name(state.tricks_done[-1].winner)
            assert f"Trick taken by {winner}:" in table and f"{mover.name}: {label}" in table, table
            taken = state.tricks_taken
            assert f"Tricks: Team 1 — {taken[0]} · Team 2 — {taken[1]}" in table  # the score line names them
            assert teams_line("table.score_teams", state.totals, seating, "en") in table
            for person in people:
                hand = person.hand()
                assert hand is not None, person.name
                assert f"{mover.name}: {label}" in hand.text, hand.text
            seen_mid_deal = True
    assert seen_mid_deal
    assert world.server.violations == []


async def test_an_outsiders_lobby_presses_that_change_the_table_are_refused(world: World) -> None:
    """Someone neither seated, nor the creator, nor an admin cannot add or remove computer players: he gets
    a clear alert and the table does not change; the creator still can."""
    creator, outsider = world.person(1, "Ann"), world.person(9, "Zed")
    await creator.say(GROUP, "/newgame classic")
    lobby = world.group_messages()[-1]
    await creator.join(lobby)
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is not None
    for ending in (":bot", ":unbot"):
        data = next((b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(ending)), None)
        if ending == ":unbot" and data is None:  # the remove button is shown once a computer sits
            answer = await creator.press(lobby, button(lobby, ":bot"))
            await world.runner.settle()
            lobby = world.server.messages[(GROUP, lobby.message_id)]
            data = button(lobby, ":unbot")
        assert data is not None
        before = await world.runner.storage.games.seats(game.game_id)
        answer = await outsider.press(lobby, data)
        await world.runner.settle()
        assert answer.get("show_alert") and "creator" in answer.get("text", ""), answer
        assert await world.runner.storage.games.seats(game.game_id) == before
    assert world.server.violations == []


async def test_no_two_buttons_of_a_hand_begin_with_the_same_word(world: World) -> None:
    """Russian four-card hand of a player answering with a card chosen: "discard" and "clear the selection"
    used to be the same verb ("Сбросить (1)" next to "Сбросить выбор"); no two buttons start alike now."""
    people = [world.person(i + 1, f"P{i + 1}", "ru") for i in range(4)]
    await people[0].say(GROUP, "/language ru")
    await people[0].say(GROUP, "/newgame 4")
    lobby = world.group_messages()[-1]
    for person in people:
        await person.join(lobby)
    lobby = world.server.messages[(GROUP, lobby.message_id)]
    await people[0].press(lobby, button(lobby, ":start"))
    rng = random.Random(3)
    assert await play_turn(next(p for p in people if p.my_turn()), rng)
    await world.runner.settle()
    answering = tn("ru", "hand.your_answer", 1).split("</b>")[0]  # "👉 <b>Ваш ход:"
    answerer, hand, toggles = await one_who_chooses(people, rng, world.runner.settle, lambda m: answering in m.text)
    await answerer.press(hand, toggles[0])
    await world.runner.settle()
    shown = answerer.hand()
    assert shown is not None
    words = [b["text"].split()[0] for b in shown.buttons() if b.get("callback_data", "").split(":")[-1][:1] not in "tn"]
    assert "Снять" in words and "Сбросить" in words, words
    assert len(words) == len(set(words)), words


async def test_no_internal_words_reach_players(world: World) -> None:
    """Russian group: a second /newgame is refused without a rule id; an unknown game lists the games by
    their names with what to type, never the internal names alone (issue 15, item 5)."""
    admin = world.person(1, "Аня", "ru")
    await admin.say(GROUP, "/language ru")
    await admin.say(GROUP, "/newgame 4")
    await admin.say(GROUP, "/newgame classic")
    refused = world.group_messages()[-1].text
    assert "уже есть партия" in refused and "X2" not in refused and "правило" not in refused, refused
    await admin.say(GROUP, "/newgame шахматы")
    unknown = world.group_messages()[-1].text
    assert "Козёл на 4 карты (/newgame 4)" in unknown and "Чешский козёл (/newgame чешский)" in unknown, unknown
    assert "four_card" not in unknown, unknown


@pytest.mark.parametrize("shown", ["text", "picture"])
async def test_a_players_own_hand_never_waits_for_the_groups_budget(world: World, shown: str) -> None:
    """Issue 31: four people at Telegram's limits; the lobby's edits have spent much of the group's budget when
    the first deal opens.  The player to move taps a second after his turn shows (his private chat's own pace
    allows that): his hand shows the tap within 0.3 s — at the start of the first deal, in the middle of it,
    and at the start of the second, where the group's new table waits for the group's budget.  A text table
    of the first deal is the lobby's message itself: one call, not two; a picture cannot be made of a text,
    so the lobby then says who plays and the table is a photo of its own."""
    await configure(world, table=shown)
    server, rng = world.server, random.Random(31)
    people = [world.person(i + 1, f"P{i + 1}") for i in range(4)]
    await people[0].say(GROUP, "/newgame 4")
    lobby = world.group_messages()[-1]
    for person in people:
        await person.join(lobby)
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is not None
    lobby = server.messages[(GROUP, lobby.message_id)]
    await tap(world, people[0], lobby, button(lobby, ":start"))
    delays = [await own_hand_delay(world, people, rng)]
    row = await world.runner.storage.games.get(game.game_id)
    assert row is not None
    if shown == "text":
        assert row.table_message_id == lobby.message_id, "the lobby's message is not the table"
        table = server.messages[(GROUP, lobby.message_id)]
        assert table.markup is None and "deal 1" in table.text and len(world.group_messages()) == 1
    else:
        started = server.messages[(GROUP, lobby.message_id)]
        assert started.markup is None and "has begun" in started.text and "P1" in started.text, started.text

        async def posted() -> bool:
            row = await world.runner.storage.games.get(game.game_id)
            return row is not None and row.table_message_id is not None

        await eventually(world, posted, what="the table")
        row = await world.runner.storage.games.get(game.game_id)
        assert row is not None and row.table_picture and row.table_message_id is not None
        table = server.messages[(GROUP, row.table_message_id)]
        assert table.photo is not None and "deal 1" in table.text and len(world.group_messages()) == 2
    delays.append(await own_hand_delay(world, people, rng))
    while True:  # to the last move of the first deal, which opens the second at once
        await world.runner.settle()
        _, state = await replay(world, game.game_id)
        assert isinstance(state, FourCardState) and state.to_move is not None
        mover = next(p for p in people if p.my_turn())
        if sum(len(h) for h in state.hands) == len(state.hands[state.to_move]) and not state.stock:
            break
        assert await play_turn(mover, rng)
    hand, actions, _ = mover.options()
    assert hand is not None and actions
    await tap(world, mover, hand, actions[0])
    delays.append(await own_hand_delay(world, people, rng))
    assert (await replay(world, game.game_id))[1].deal_no == 1
    assert max(delays) <= 0.3, f"his own hand showed his tap {delays} s after it"


async def tap(world: World, person: Person, message: Message, data: str) -> None:
    """Press a button, and go on once it is answered, as a person does: not waiting for what it changes."""
    query = await world.server.press(person.user_id, message, data)
    await world.server.answer_of(query)


async def own_hand_delay(world: World, people: list[Person], rng: random.Random) -> float:
    """A second after someone's hand says it is his turn, he taps a card (or a move): seconds until his
    private chat shows it."""
    while not [p for p in people if p.my_turn()]:
        await asyncio.sleep(0.01)
    await asyncio.sleep(1.0)
    movers = [p for p in people if p.my_turn()]  # the turn a hand showed a second ago may have passed on
    assert movers, "nobody's turn"
    mover = movers[0]
    hand, actions, toggles = mover.options()
    assert hand is not None and (toggles or actions), hand
    seen = len(world.server.shown)
    tapped = world.server.clock.now()
    await tap(world, mover, hand, rng.choice(toggles or actions))

    async def shown() -> bool:
        return any(s.chat_id == mover.user_id for s in world.server.shown[seen:])

    await eventually(world, shown, what="his hand")
    return next(s.at for s in world.server.shown[seen:] if s.chat_id == mover.user_id) - tapped
