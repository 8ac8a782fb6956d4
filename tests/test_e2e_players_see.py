"""End to end: what players see (issue 15), the items ``test_e2e_table.py`` does not cover: joining from
"Sit at N", /start in a group and after unblocking, a cancelled game's vote, hands and /score, a series of
computer players only in /score, one tap for a forced four-card move, the Czech kozel marked, scores set
apart from computer names, and /score in words."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from bot.i18n import t
from bot.present import game_title
from engine import Kind, find_variant, variant_names
from engine.games.czech.rules import KOZEL
from playground.botapi import BOT_USERNAME
from storage import ChatSettings
from tests.e2e import (
    GROUP,
    World,
    button,
    eventually,
    finished,
    open_game,
    play_turn,
    replay,
    running_world,
    with_computers,
)
from tests.helpers import card_buttons_that_play

FAST: dict[str, Any] = {
    "lobby_ttl_seconds": 600,
    "computer_workers": 0,
    "computer_budget_seconds": 0.02,
    "computer_pause_seconds": 0.02,
}


async def configure(world: World, **values: object) -> None:
    await world.runner.storage.chats.ensure(GROUP, "Friends", "supergroup")
    await world.runner.storage.chats.save_settings(GROUP, ChatSettings(**values))  # type: ignore[arg-type]


async def test_sit_at_a_seat_pressed_by_someone_not_in_the_game_joins_him_there(world: World) -> None:
    """Item 4: "Sit at 3" by someone who has not joined opens the bot's deep link for that seat (no "you are
    not seated"); following it seats him there.  A taken seat is refused with an alert."""
    ann, zed, kim = world.person(1, "Ann"), world.person(9, "Zed"), world.person(8, "Kim")
    await ann.say(GROUP, "/newgame classic")
    lobby = world.group_messages()[-1]
    await ann.join(lobby)
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is not None
    lobby = world.server.messages[(GROUP, lobby.message_id)]
    answer = await zed.press(lobby, button(lobby, ":seat2"))
    assert not answer.get("show_alert") and not answer.get("text"), answer
    assert answer.get("url") == f"https://t.me/{BOT_USERNAME}?start=j{game.game_id}s2", answer
    await zed.say(zed.user_id, "/start " + answer["url"].split("?start=")[1])
    seats = {s.seat: s.user_id for s in await world.runner.storage.games.seats(game.game_id)}
    assert seats == {0: ann.user_id, 2: zed.user_id}
    assert "3. Zed" in world.server.messages[(GROUP, lobby.message_id)].text
    assert "You're at the table" in world.server.bot_messages(zed.user_id)[-1].text
    refused = await kim.press(lobby, f"L{game.game_id}:seat2")  # taken meanwhile: an old keyboard
    assert refused.get("show_alert") and refused.get("text") == t("en", "lobby.seat_taken"), refused
    assert world.server.violations == []


async def test_start_in_a_group_gets_its_own_answer(world: World) -> None:
    """Item 7: /start in a group says how to play there, not the private chat's greeting."""
    ann = world.person(1, "Ann")
    await ann.say(GROUP, "/start")
    answer = world.group_messages()[-1]
    assert answer.text.startswith("🐐 I play Kozel in this group: ") and not answer.buttons(), answer.text
    for name in variant_names():  # every game the registry has, by its title and what to type
        assert f"{game_title(name, 'en')} (/newgame {t('en', f'newgame.arg.{name}')})" in answer.text, answer.text
    await ann.say(GROUP, "/help")
    usage = next(line for line in world.group_messages()[-1].text.splitlines() if line.startswith("/newgame"))
    assert usage == f"/newgame [{' | '.join(t('en', f'newgame.arg.{n}') for n in variant_names())}] — open a game in a group"
    await ann.say(ann.user_id, "/start")
    assert world.server.bot_messages(ann.user_id)[-1].text == t("en", "start.hello")


async def test_after_unblocking_the_greeting_comes_before_the_returned_hand(tmp_path: Path) -> None:
    """Item 7: a player who blocked the bot starts it again: the greeting first, then his hand with "I'm
    back" (it used to come after the hand)."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, turn_timer=0, computer_level="random")
        people, _ = await open_game(world, "/newgame czech", 3)
        blocker = next(p for p in people if not p.my_turn())
        world.server.users[blocker.user_id].blocked = True
        rng = random.Random(4)

        async def announced() -> bool:
            for person in people:
                if person is not blocker and person.my_turn():
                    await play_turn(person, rng)
            return any("blocked the bot" in m.text for m in world.group_messages())

        await eventually(world, announced, what="the blocked player to be announced")
        before = max(m.message_id for m in world.server.chat_messages(blocker.user_id, include_deleted=True))
        await blocker.say(blocker.user_id, "/start")
        await world.runner.settle()
        new = [m for m in world.server.bot_messages(blocker.user_id) if m.message_id > before]
        assert new and new[0].text == t("en", "start.hello"), [m.text[:40] for m in new]
        backs = [i for i, m in enumerate(new) if any(b.get("callback_data", "").endswith(":back") for b in m.buttons())]
        assert backs and backs[0] > 0, [m.text[:40] for m in new]


async def test_a_cancelled_game_says_so_in_its_vote_its_hands_and_score(tmp_path: Path) -> None:
    """Item 8 and item 5: /score mid-series reads in words; then a vote to cancel is opened and the creator
    cancels at once: the vote message loses its button, every hand says the game was cancelled (not only
    that it is over), and /score says what became of it instead of "nobody has played here"."""
    async with running_world(tmp_path, **FAST) as world:
        people, game = await open_game(world, "/newgame czech", 4)
        rng = random.Random(8)
        while True:  # one whole deal
            row, state = await replay(world, game.game_id)
            if state.deals:
                break
            mover = next(p for p in people if p.my_turn())
            assert await play_turn(mover, rng)
        await world.runner.settle()
        await people[1].say(GROUP, "/score")
        score = world.group_messages()[-1].text
        assert "Czech Kozel: game in progress, deal 2" in score, score
        assert "Deal 1: P1: +" in score and "→" not in score and "Current" not in score, score

        hands = {p.user_id: hand.message_id for p in people if (hand := p.hand()) is not None}
        assert len(hands) == len(people)
        await people[2].say(GROUP, "/cancel")  # not the creator: a vote
        vote = world.group_messages()[-1]
        assert button(vote, ":vote")
        await people[0].say(GROUP, "/cancel")  # the creator: at once
        await world.runner.settle()
        row, _ = await replay(world, game.game_id)
        assert row.status == "cancelled"
        shown = world.server.messages[(GROUP, vote.message_id)]
        assert not shown.buttons() and "cancelled the game" in shown.text, (shown.text, shown.markup)
        for user_id, message_id in hands.items():
            hand = world.server.messages[(user_id, message_id)]
            assert t("en", "hand.cancelled") in hand.text and not hand.buttons(), hand.text
        await people[1].say(GROUP, "/score")
        score = world.group_messages()[-1].text
        assert "Czech Kozel, was cancelled after 1 deal" in score, score
        assert "doesn't count towards this chat's table below, but it counts for the ratings (/top)" in score, score
        assert t("en", "score.none") not in score
        assert world.server.violations == []


async def test_a_vote_to_cancel_loses_its_button_when_the_series_ends_even_after_a_restart(tmp_path: Path) -> None:
    """A vote to cancel that is still open when the series ends as usual is closed with it: its button goes.
    The vote's message is kept with the game in the database, so a restart in between changes nothing (it was
    kept in memory only, and the button stayed live after a normal end)."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, computer_level="random", turn_timer=0)
        (_, bob), game = await with_computers(world, "/newgame czech", 2, "Bob")
        assert game.status == "active"
        await bob.say(GROUP, "/cancel")  # not the creator: a vote, 1 of the 2 people needed
        vote = world.group_messages()[-1]
        assert button(vote, ":vote")
        for seat in await world.runner.storage.games.seats(game.game_id):
            if seat.user_id is not None:  # both step away: computers play the series to its end
                await world.runner.storage.games.set_stand_in(game.game_id, seat.seat, "random", 2)
        await world.runner.stop()
        await world.runner.start()
        await eventually(world, lambda: finished(world, game.game_id), timeout=180, what="the series to end")
        row, _ = await replay(world, game.game_id)
        assert row.status == "finished"

        async def closed() -> bool:
            return not world.server.messages[(GROUP, vote.message_id)].buttons()

        await eventually(world, closed, what="the vote's button to go")
        assert world.server.messages[(GROUP, vote.message_id)].text == t("en", "cancel.vote_over")
        assert world.server.violations == []


async def test_a_series_of_computer_players_only_is_told_in_score(tmp_path: Path) -> None:
    """Item 8 and item 10: a series that only computer players played ends; /score says so instead of
    "nobody has played here".  On the table, a computer's name and its number are set apart."""
    async with running_world(tmp_path, **FAST) as world:
        await configure(world, computer_level="random")
        ann = world.person(1, "Ann")
        await ann.say(GROUP, "/newgame czech")
        lobby = world.group_messages()[-1]
        for _ in range(3):
            await ann.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":bot"))
        opened = await world.runner.storage.games.open_game(GROUP)
        assert opened is not None
        await ann.press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":start"))
        game = await world.runner.storage.games.get(opened.game_id)  # the computers may have played it out
        assert game is not None and game.status in ("active", "finished")
        await eventually(world, lambda: finished(world, game.game_id), timeout=900, what="the series to end")

        async def told() -> bool:  # the outcome is posted after the series is stored (the outbox may hold it)
            return any("🏆" in m.text for m in world.group_messages())

        await eventually(world, told, timeout=30, what="the outcome in the group")
        tables = [m.text for m in world.group_messages() if "Total penalty points:" in m.text]
        assert tables and all(re.search(r"🤖 Bot \d: \d", text) for text in tables), tables[:1]
        assert not any(re.search(r"🤖 Bot \d \d", text) for text in tables)
        await ann.say(GROUP, "/score")
        score = world.group_messages()[-1].text
        assert "played by computer players only" in score and t("en", "score.none") not in score, score


async def test_a_forced_four_card_move_takes_one_tap(world: World) -> None:
    """Item 9: whenever every legal lead or answer of the seat to move uses the same cards (an answer with the
    whole hand, a lead of the last card), his hand offers those moves as buttons at once, nothing chosen."""
    people, game = await open_game(world, "/newgame 4", 4)
    rng = random.Random(9)
    forced_seen = 0
    for _ in range(300):
        row, state = await replay(world, game.game_id)
        if row.status != "active" or forced_seen >= 3:
            break
        seat = state.to_move
        if seat is not None:
            legal = [a for a in state.legal_actions(seat) if a.kind in (Kind.LEAD, Kind.BEAT, Kind.DISCARD)]
            if legal and len({frozenset(a.cards) for a in legal}) == 1:
                user_id = row_user(await seats_of(world, game.game_id), seat)
                person = next(p for p in people if p.user_id == user_id)
                hand, actions, _ = person.options()
                assert hand is not None and "👉" in hand.text
                offered = {d.split(":a", 1)[1] for d in actions}
                assert {a.encode() for a in legal} <= offered, (hand.text, actions)
                forced_seen += 1
        mover = next((p for p in people if p.my_turn()), None)
        if mover is None:
            await world.runner.settle()
            continue
        await play_turn(mover, rng)
        await world.runner.settle()
    assert forced_seen, "no forced move came up"
    assert world.server.violations == []


async def test_a_four_card_card_of_one_use_is_played_with_one_tap(world: World) -> None:
    """F7/F8: a tap on a card that can be played in one way only (the only card of its suit on lead, a card that
    cannot beat a single led card) stores that move at once: no choosing, no move button."""
    people, game = await open_game(world, "/newgame 4", 4)
    rng = random.Random(11)
    for _ in range(200):
        mover = next(p for p in people if p.my_turn())
        hand = mover.hand()
        assert hand is not None
        at_once = card_buttons_that_play(((b["text"], b.get("callback_data", "")) for b in hand.buttons()), "four_card")
        if at_once:
            data, action = next(iter(at_once.items()))
            _, before = await replay(world, game.game_id)
            await mover.press(hand, data)
            await world.runner.settle()
            _, after = await replay(world, game.game_id)
            assert after.history == [*before.history, action]  # one tap, one move stored
            assert action.kind in (Kind.LEAD, Kind.DISCARD) and len(action.cards) == 1
            return
        assert await play_turn(mover, rng)
        await world.runner.settle()
    raise AssertionError("no card of one use came up")


async def seats_of(world: World, game_id: int) -> dict[int, int | None]:
    return {s.seat: s.user_id for s in await world.runner.storage.games.seats(game_id)}


def row_user(seats: dict[int, int | None], seat: int) -> int:
    user = seats[seat]
    assert user is not None
    return user


def seed_with_kozel_dealt() -> int:
    """A seed whose first deal of three-player Czech Kozel puts the kozel in a hand (not the talon)."""
    for seed in range(1, 200):
        state = find_variant("czech").new_game(seed, {"players": 3})
        if any(KOZEL in hand for hand in state.hands):
            return seed
    raise AssertionError("no seed deals the kozel")


async def test_the_czech_kozel_is_marked_in_its_holders_hand(tmp_path: Path) -> None:
    """Item 10: the green Ober (Q♠, the kozel) is marked 🐐 on its button; no other card is."""
    seed = seed_with_kozel_dealt()
    async with running_world(tmp_path, seeds=lambda: seed, lobby_ttl_seconds=600) as world:
        people, game = await open_game(world, "/newgame czech", 3)
        _, state = await replay(world, game.game_id)
        holder = next(s for s, hand in enumerate(state.hands) if KOZEL in hand)
        seats = await seats_of(world, game.game_id)
        for person in people:
            hand = person.hand()
            assert hand is not None
            marked = [b["text"] for b in hand.buttons() if "🐐" in b["text"] and "Double" not in b["text"]]
            if seats[holder] == person.user_id:
                assert len(marked) == 1 and "O🍃🐐" in marked[0], marked
            else:
                assert marked == [], marked
