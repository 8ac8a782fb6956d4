"""End to end: the real application over real HTTP against the fake Bot API server, with simulated people
who open a game, join through the deep link and play complete series by pressing the buttons they were sent.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.present.render import Seating, card_label, render_deal_result, render_outcome
from engine import Card, GameState, Kind, find_variant
from playground.botapi import BOT_USERNAME
from storage import GameRow
from tests.e2e import (
    GAME_DATA,
    GROUP,
    PERIOD,
    World,
    configure,
    finished,
    open_game,
    play_moves,
    play_until,
    replay,
    running_world,
)

FACE_UP = (Kind.LEAD, Kind.BEAT, Kind.MOLODKA, Kind.PLAY, Kind.DOUBLE)


def labels(variant: str) -> dict[str, Card]:
    return {card_label(c, variant): c for c in find_variant(variant).deck}


def card_pattern(variant: str) -> re.Pattern[str]:
    names = sorted(labels(variant), key=len, reverse=True)
    return re.compile("|".join(re.escape(n) for n in names))


def check_hands_show_only_own_cards(world: World, row: GameRow, state: GameState) -> int:
    """Every hand render: its card buttons are exactly the player's hand at the version it was drawn for."""
    seat_of = {s: seat for seat, s in enumerate(range(1, state.num_players + 1))}
    by_label = labels(row.variant)
    renders = []
    for shown in world.server.shown:
        if shown.chat_id < 0:
            continue
        versions = {int(m[2]) for b in shown.buttons() if (m := GAME_DATA.fullmatch(b.get("callback_data", "")))}
        if versions:
            assert len(versions) == 1
            renders.append((versions.pop(), shown))
    hands_at: dict[int, list[tuple[Card, ...]]] = {}
    needed = {v for v, _ in renders}
    game = find_variant(row.variant).new_game(row.seed, row.options)
    for version in range(len(state.history) + 1):
        if version in needed:
            hands_at[version] = [tuple(h) for h in game.hands]
        if version < len(state.history):
            game.apply(state.history[version])
    for version, shown in renders:
        seat = seat_of[shown.chat_id]
        cards = {by_label[b["text"].strip("✅·🂠")] for b in shown.buttons() if b["text"].strip("✅·🂠") in by_label}
        assert cards == set(hands_at[version][seat]), (version, shown.text)
    return len(renders)


def check_group_sees_no_hidden_card(world: World, row: GameRow, state: GameState) -> None:
    """Group texts name only cards that were face up in that deal (and the shown trump card)."""
    face_up: dict[int, set[Card]] = {}
    game = find_variant(row.variant).new_game(row.seed, row.options)
    for action in state.history:
        deal = game.deal_no
        trump = getattr(game, "trump_card", None)
        face_up.setdefault(deal, set()).update([trump] if trump else [])
        if action.kind in FACE_UP:
            face_up[deal].update(action.cards)
        game.apply(action)
    pattern = card_pattern(row.variant)
    by_label = labels(row.variant)
    header = re.compile(r"[Dd]eal (\d+)")  # a table's header, or a result's
    for shown in world.server.shown:
        if shown.chat_id != GROUP:
            continue
        seen = {by_label[m] for m in pattern.findall(shown.text)}
        deals = header.findall(shown.text)
        if not deals:
            assert not seen, shown.text
            continue
        assert seen <= face_up.get(int(deals[-1]) - 1, set()), (
            shown.text,
            seen - face_up.get(int(deals[-1]) - 1, set()),
        )


def check_group_pacing(world: World) -> int:
    sends = sorted(
        c.at
        for c in world.server.calls
        if c.method in ("sendMessage", "sendPhoto") and str(c.params.get("chat_id")) == str(GROUP) and c.error is None
    )
    worst = 0
    for i, start in enumerate(sends):
        worst = max(worst, sum(1 for at in sends[i:] if at - start < PERIOD))
    assert worst <= 20, worst
    return worst


@pytest.mark.parametrize(
    ("command", "players", "table"),
    [("/newgame 4", 4, "picture"), ("/newgame classic", 4, "text"), ("/newgame чешский", 3, "picture"),
     ("/newgame czech", 6, "text")],
)  # fmt: skip
async def test_a_group_plays_a_complete_series(world: World, command: str, players: int, table: str) -> None:
    """A whole series, its table a picture or a text: what everybody sees of it, and the group's budget."""
    await configure(world, table=table)
    people, game = await open_game(world, command, players)
    rng = random.Random(players * 31 + len(command))

    async def done() -> bool:
        return await finished(world, game.game_id)

    moves = await play_until(people, done, rng)
    await world.runner.settle()
    row, state = await replay(world, game.game_id)
    assert row.status == "finished" and state.outcome is not None
    assert row.action_count == len(state.history) >= moves // 8

    # Each player saw only his own cards; the group never a hand or a face-down card.
    assert check_hands_show_only_own_cards(world, row, state) > 50
    check_group_sees_no_hidden_card(world, row, state)

    # The scores shown equal the engine's; a picture table becomes its deal's result, and the series' end is a
    # picture of its own.
    seating = Seating(tuple(p.name for p in people), "Friends")
    group = world.group_messages()
    final = "\n".join(m.text for m in group[-2:] if table == "picture" or m is group[-1])
    assert render_deal_result(state.deals[-1], row.variant, seating, "en") in final
    assert render_outcome(state.outcome, row.variant, seating, "en") in final
    assert (group[-1].photo is not None) == (table == "picture")
    shown = [(s.chat_id, s.message_id) for s in world.server.shown]
    closed_at = max(i for i, key in enumerate(shown) if key == (GROUP, row.table_message_id))
    assert closed_at < shown.index((GROUP, group[-1].message_id)), "the series' end came above its last deal's"
    for result in state.deals[:-1]:
        told = [m for m in group if render_deal_result(result, row.variant, seating, "en") in m.text]
        assert told and all((m.photo is not None) == (table == "picture") for m in told), result
    # Each player reads every deal's result, and the series', where he played it: in his closed hands.
    for person in people:
        closed = "\n".join(m.text for m in world.server.bot_messages(person.user_id))
        for result in state.deals:
            assert render_deal_result(result, row.variant, seating, "en") in closed, person.name
        assert render_outcome(state.outcome, row.variant, seating, "en") in closed, person.name

    await people[1].say(GROUP, "/score")
    score = world.group_messages()[-1].text
    for seat in state.outcome.winners:
        assert f"P{seat + 1}" in score
    assert "won 1" in score or "table points" in score

    # Every request was one Telegram accepts, and the group was never flooded.
    assert world.server.violations == []
    check_group_pacing(world)
    # No hand keyboard is left alive after the series.
    for person in people:
        hand = person.hand()
        assert hand is None or not person.options()[1]


async def test_restart_mid_deal_loses_and_repeats_nothing(world: World) -> None:
    await restart_mid_deal(world)


@pytest.mark.real_time
async def test_restart_mid_deal_in_webhook_mode(tmp_path: Path) -> None:
    async with running_world(tmp_path, webhook=True, lobby_ttl_seconds=600) as world:
        await restart_mid_deal(world, to_the_end=False)  # over real HTTP: the series' end is the other test's
        assert world.server.webhook is not None and world.server.webhook_refused == []


async def restart_mid_deal(world: World, *, to_the_end: bool = True) -> None:
    """A restart in the middle of a deal loses no move and repeats none; the hands go on working (to the
    series' end, or for a dozen moves)."""
    people, game = await open_game(world, "/newgame classic", 4)
    rng = random.Random(7)
    await play_moves(people, 14, rng)
    _, before = await replay(world, game.game_id)
    assert before.trick or before.tricks_done  # mid-deal
    sent_before = len(world.server.calls)

    await world.runner.stop()
    await world.runner.start()
    await world.runner.settle()

    _, after = await replay(world, game.game_id)
    assert after == before  # nothing lost
    restored = world.server.calls[sent_before:]
    assert not any(c.method in ("sendMessage", "sendPhoto") and str(c.params.get("chat_id")) == str(GROUP)
                   for c in restored)  # fmt: skip
    unchanged = [c.method for c in restored if "not modified" in (c.error or "")]
    assert unchanged == [], "a restart edited messages into what they showed already"
    if to_the_end:
        await play_until(people, lambda: finished(world, game.game_id), rng)
    else:
        await play_moves(people, 12, rng)
    row, state = await replay(world, game.game_id)
    assert state.history[: len(before.history)] == before.history  # nothing repeated or rewritten
    assert len(state.history) >= len(before.history) + 12 and world.server.violations == []
    assert row.status == "finished" or not to_the_end
    check_hands_show_only_own_cards(world, row, state)


async def test_bad_input_is_answered_and_changes_nothing(world: World) -> None:
    people, game = await open_game(world, "/newgame czech", 3)
    outsider = world.person(50, "Outsider")
    await outsider.say(50, "/start")

    # Commands in the wrong place, unknown commands, a second game.
    await outsider.say(50, "/newgame")
    assert "works in a group" in world.server.bot_messages(50)[-1].text
    await outsider.say(50, "/score")
    assert "works in a group" in world.server.bot_messages(50)[-1].text
    await outsider.say(GROUP, "/frobnicate")
    assert "don't know that command" in world.group_messages()[-1].text
    said = len(world.group_messages())
    for elsewhere in ("/help@OtherBot", "/newgame@other_bot classic", "/frobnicate@OtherBot"):
        await outsider.say(GROUP, elsewhere)  # another bot's commands: not ours to answer
    await outsider.say(GROUP, f"/frobnicate@{BOT_USERNAME.upper()}")
    assert len(world.group_messages()) == said + 1 and "don't know" in world.group_messages()[-1].text
    await outsider.say(GROUP, "/newgame classic")
    assert "already has a game" in world.group_messages()[-1].text
    await outsider.say(GROUP, "/newgame <poker> & co")
    assert "“&lt;poker&gt; &amp; co”" in world.group_messages()[-1].text

    _, before = await replay(world, game.game_id)
    mover = next(p for p in people if p.my_turn())
    hand, actions, _ = mover.options()
    assert hand is not None and actions
    own_chat = world.server.bot_messages(50)[-1]

    # A press by someone else, forged data, stale data.
    answer = await outsider.press(own_chat, actions[0])
    assert answer["show_alert"] and "aren't your cards" in answer["text"]
    for forged in ["g1:0:zz", "hello", "g999:0:n", "L1:start", "g1:" + "9" * 70]:
        answer = await outsider.press(own_chat, forged)
        assert answer.get("show_alert"), forged
    other = next(p for p in people if p is not mover)
    other_hand = other.hand()
    assert other_hand is not None
    answer = await other.press(other_hand, actions[0])  # his own chat, somebody else's move
    assert answer["show_alert"]
    _, after = await replay(world, game.game_id)
    assert after == before

    # A double tap: the same button twice at once applies once, the second press is stale.
    first = await world.server.press(mover.user_id, hand, actions[0])
    second = await world.server.press(mover.user_id, hand, actions[0])
    answers = [await world.server.answer_of(first), await world.server.answer_of(second)]
    await world.runner.settle()
    assert sorted(bool(a.get("show_alert")) for a in answers) == [False, True]
    assert any("out of date" in a.get("text", "") for a in answers)
    _, after = await replay(world, game.game_id)
    assert len(after.history) == len(before.history) + 1

    # A stale button from an older keyboard.
    answer = await mover.press(hand, actions[-1])
    assert answer["show_alert"] and "out of date" in answer["text"]
    _, again = await replay(world, game.game_id)
    assert again == after
    assert world.server.violations == []


async def test_lobby_rules(world: World) -> None:
    creator, friend, admin_less = world.person(1, "Ann"), world.person(2, "Bob"), world.person(3, "Cid")
    await creator.say(GROUP, "/newgame 4")
    lobby = world.group_messages()[-1]
    buttons = {b["callback_data"].split(":")[-1]: str(b["callback_data"]) for b in lobby.buttons() if "callback_data" in b}
    answer = await creator.press(lobby, buttons["start"])
    assert answer["show_alert"] and "needs exactly 4 players" in answer["text"]
    await friend.join(lobby)
    assert "Bob" in world.server.messages[(GROUP, lobby.message_id)].text
    await friend.join(lobby)
    assert "already at the table" in world.server.bot_messages(2)[-1].text
    answer = await admin_less.press(lobby, buttons["cancel"])
    assert answer["show_alert"] and "Only Ann" in answer["text"]
    lobby = world.server.messages[(GROUP, lobby.message_id)]
    seat_buttons = [b["callback_data"] for b in lobby.buttons() if ":seat" in b.get("callback_data", "")]
    await friend.press(lobby, seat_buttons[-1])
    assert "4. Bob" in world.server.messages[(GROUP, lobby.message_id)].text
    await friend.press(lobby, buttons["leave"])
    assert "Bob" not in world.server.messages[(GROUP, lobby.message_id)].text
    answer = await creator.press(lobby, buttons["cancel"])
    assert not answer.get("show_alert")
    assert "cancelled" in world.server.messages[(GROUP, lobby.message_id)].text
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is None
    await creator.say(GROUP, "/newgame")  # a new lobby is possible again
    assert world.group_messages()[-1].buttons()
    assert world.server.violations == []


async def test_start_help_rules_and_language(world: World) -> None:
    ann = world.person(1, "Ann", "ru")
    await ann.say(1, "/start")
    hello = world.server.bot_messages(1)[-1]
    assert "Козёл" in hello.text and any("startgroup" in b.get("url", "") for b in hello.buttons())
    await ann.say(1, "/language en")
    await ann.say(1, "/help")
    assert "/newgame" in world.server.bot_messages(1)[-1].text
    await ann.say(1, "/rules czech")
    assert "Czech Kozel" in world.server.bot_messages(1)[-1].text
    await ann.say(GROUP, "/language ru")  # Ann is the group's admin
    await ann.say(GROUP, "/help")
    assert "Команды" in world.group_messages()[-1].text
    bob = world.person(2, "Bob")
    await bob.say(GROUP, "/language en")
    assert "администраторы" in world.group_messages()[-1].text
    assert world.server.violations == []


async def test_the_bot_cannot_write_to_someone_who_never_started_it(world: World) -> None:
    """Joining goes through the deep link, which opens the private chat first (403 otherwise)."""
    people, game = await open_game(world, "/newgame czech", 3)
    stranger = world.server.add_user(77, "Stranger")
    assert not stranger.started
    sent_to_stranger = [c for c in world.server.calls if str(c.params.get("chat_id")) == "77"]
    assert sent_to_stranger == []
    assert all(world.server.users[p.user_id].started for p in people)
    assert game.status == "active"


async def test_command_replies_wait_their_turn_in_the_groups_budget(world: World) -> None:
    """Thirty /help in a group within a moment: more than its 20 messages a minute; every reply comes, none
    past Telegram's limits (``running_world`` fails the test on any 429)."""
    world.person(1, "Ann")
    for _ in range(30):
        await world.server.send_text(1, GROUP, "/help")
    await world.runner.settle(timeout=3 * PERIOD)
    replies = [m for m in world.group_messages() if "/newgame" in m.text]
    assert len(replies) == 30
    assert world.server.violations == []
