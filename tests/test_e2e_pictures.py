"""End to end: the group's table as a picture (issue 34), over the embedded Bot API server at Telegram's
limits: posted as a photo, kept current in place, closed into its deal's result, moved when the chat changes
its setting, kept across a restart."""

from __future__ import annotations

import random
from io import BytesIO

from PIL import Image

from bot.present import Seating
from bot.present.render import render_deal_result
from playground.botapi import Message
from tests.e2e import GROUP, World, button, configure, finished, one_move, open_game, play_moves


def calls_on(world: World, message_id: int, *methods: str) -> int:
    """Successful calls of ``methods`` on the group's message ``message_id``."""
    return sum(
        1 for c in world.server.calls
        if c.method in methods and c.error is None and str(c.params.get("chat_id")) == str(GROUP)
        and int(c.params.get("message_id", 0)) == message_id
    )  # fmt: skip


async def table_message(world: World, game_id: int) -> Message:
    row = await world.runner.storage.games.get(game_id)
    assert row is not None and row.table_message_id is not None
    return world.server.messages[(GROUP, row.table_message_id)]


async def test_the_table_is_a_picture_kept_current_in_place_and_becomes_its_deals_result(world: World) -> None:
    """Four-card Kozel in a group that shows its table as a picture (the default): the lobby's message says
    who plays; the table is one photo whose picture and caption follow every move in place (editMessageMedia),
    each picture uploaded once; when the deal ends that photo becomes the deal's result and the next deal has
    a photo of its own."""
    people, game = await open_game(world, "/newgame 4", 4)
    await world.runner.settle()
    lobby = world.group_messages()[0]
    assert "has begun" in lobby.text and lobby.markup is None and lobby.photo is None
    first = await table_message(world, game.game_id)
    assert first.photo is not None and "deal 1" in first.text and "Turn: <b>" in first.text
    rng, pictures = random.Random(34), {first.photo}
    seating = Seating(tuple(p.name for p in people), "Friends")
    while True:
        _, before, row, state = await one_move(world, people, game.game_id, rng)
        if state.deals:
            break
        table = world.server.messages[(GROUP, first.message_id)]
        assert row.table_message_id == first.message_id and table.photo is not None
        pictures.add(table.photo)
        if state.history != before.history and state.to_move is not None:
            assert f"Turn: <b>{seating.name(state.to_move)}</b>" in table.text, table.text
    assert len(pictures) > 5 and calls_on(world, first.message_id, "editMessageMedia") >= len(pictures) - 1
    uploaded = world.server.uploads()
    assert len(uploaded) == len(set(uploaded)) == world.runner.publisher.file_ids.uploads  # none uploaded twice
    closed = world.server.messages[(GROUP, first.message_id)]
    assert render_deal_result(state.deals[0], "four_card", seating, "en") in closed.text
    assert closed.photo is not None and closed.photo not in pictures  # the result's picture, not a table's
    result = Image.open(BytesIO(world.server.photos[closed.photo]))
    assert result.format == "JPEG" and result.size[0] == 1024
    second = await table_message(world, game.game_id)
    assert second.message_id != first.message_id and second.photo is not None and "deal 2" in second.text
    assert world.server.violations == []


async def test_a_chat_switches_its_table_between_picture_and_text_mid_deal_and_a_restart_keeps_it(
    world: World,
) -> None:
    """An admin switches the table in /settings while a deal runs: the table comes again the new way at the
    bottom (the old picture goes; the old text says where the table went), goes on following the moves, and a
    restart edits it as what it is."""
    people, game = await open_game(world, "/newgame classic", 4)
    rng = random.Random(3)
    await play_moves(people, 3, rng)
    await world.runner.settle()
    picture = await table_message(world, game.game_id)
    assert picture.photo is not None
    await people[0].say(GROUP, "/settings")  # P1 is the group's admin
    menu = world.group_messages()[-1]
    assert "Table: picture" in menu.text
    await people[0].press(menu, button(menu, "s:table=text"))
    await world.runner.settle()
    text = await table_message(world, game.game_id)
    assert text.photo is None and "On the table" in text.text and text.message_id > menu.message_id
    assert world.server.messages[(GROUP, picture.message_id)].deleted
    await play_moves(people, 2, rng)
    await world.runner.settle()
    assert world.server.messages[(GROUP, text.message_id)].edits > 0
    menu = world.server.messages[(GROUP, menu.message_id)]
    await people[0].press(menu, button(menu, "s:table=picture"))
    await world.runner.settle()
    again = await table_message(world, game.game_id)
    assert again.photo is not None and again.message_id > text.message_id
    assert "continues below, as a picture" in world.server.messages[(GROUP, text.message_id)].text

    await world.runner.stop()
    await world.runner.start()
    await world.runner.settle()
    shown = again.photo
    await play_moves(people, 2, rng)
    await world.runner.settle()
    after = await table_message(world, game.game_id)
    assert after.message_id == again.message_id and after.photo not in (None, shown)  # edited in place
    assert world.server.violations == []


async def test_a_cancelled_picture_tables_caption_alone_changes(world: World) -> None:
    """Cancelling keeps the table's picture and says so under it: one editMessageCaption, no new upload."""
    people, game = await open_game(world, "/newgame czech", 3)
    await play_moves(people, 4, random.Random(5))
    await world.runner.settle()
    table = await table_message(world, game.game_id)
    media = calls_on(world, table.message_id, "editMessageMedia")
    shown = table.photo
    await people[0].say(GROUP, "/cancel")
    await world.runner.settle()
    assert await finished(world, game.game_id)
    closed = world.server.messages[(GROUP, table.message_id)]
    assert closed.photo == shown and "cancel" in closed.text.lower()
    assert calls_on(world, table.message_id, "editMessageCaption") == 1
    assert calls_on(world, table.message_id, "editMessageMedia") == media
    assert world.server.violations == []


async def test_a_text_table_stays_as_it_was(world: World) -> None:
    """A chat that chose the text table plays as before: the lobby's message becomes the table, no photo."""
    await configure(world, table="text")
    people, game = await open_game(world, "/newgame 4", 4)
    await play_moves(people, 6, random.Random(1))
    await world.runner.settle()
    assert not any(m.photo for m in world.group_messages())
    assert not any(c.method in ("sendPhoto", "editMessageMedia", "editMessageCaption") for c in world.server.calls)
    row = await world.runner.storage.games.get(game.game_id)
    assert row is not None and not row.table_picture and row.table_message_id == world.group_messages()[0].message_id
