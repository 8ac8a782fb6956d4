"""The Mini App: who asks is proved by Telegram's signed initData, a page holds only what its person may know
(X1), and a tap in it is a press of his hand — the same checks, the same game, the chats told of it as of a
button's press.  On virtual time the page's requests are made in process (``MiniApp.tap``, ``MiniApp.pages``, the
handlers with a made-up request); the page itself, over HTTP in a browser, is ``tests/test_miniapp_browser.py``'s."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from aiohttp import web
from aiohttp.test_utils import make_mocked_request
from pydantic import ValidationError
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.error import BadRequest

from bench.miniapp import app_choice
from bot.callbacks import Play
from bot.config import Settings
from bot.i18n import t
from bot.miniapp.auth import AppUser, Unauthorized, game_of, sign, ticket, verify
from bot.miniapp.server import MiniApp
from bot.miniapp.state import lines, page_state
from bot.present import presenter
from engine import Card, View
from playground.botapi import BOT_USERNAME, BotApiServer, Message
from tests.e2e import GROUP, Person, World, button, configure, play_turn, running_world, server_and_bot, with_computers

APP_URL = "https://kozel.example/app/"
VERSION = re.compile(r"^(g\d+):\d+:")
APP: dict[str, Any] = {"miniapp_url": APP_URL, "miniapp_listen": "127.0.0.1", "miniapp_port": 0, "miniapp_name": "table"}
DAY = 86_400.0


# --- who asks ------------------------------------------------------------------------------------------------


def signed_by(server: BotApiServer, user_id: int, **fields: str) -> str:
    return server.init_data(user_id, **fields)


def test_the_init_data_telegram_signs_names_its_person() -> None:
    """The embedded server signs as Telegram does (its own code); the bot reads what it signed."""
    server = BotApiServer(token="42:secret")
    server.add_user(5, "Ann", "ru")
    data = signed_by(server, 5, start_param="g7_abcdefghijkl")
    user = verify(data, "42:secret", server.clock.now(), DAY)
    assert user == AppUser(5, "Ann", "", "ru", "g7_abcdefghijkl")
    assert verify(sign(dict(parse_qsl(data)), "42:secret"), "42:secret", server.clock.now(), DAY).user_id == 5


def test_a_missing_forged_altered_or_expired_init_data_is_refused() -> None:
    server = BotApiServer(token="42:secret")
    server.add_user(5, "Ann")
    data = signed_by(server, 5)
    now = server.clock.now()
    made = int(dict(parse_qsl(data))["auth_date"])
    fields = dict(parse_qsl(data))
    other = BotApiServer(token="43:another")
    other.add_user(5, "Ann")
    refused = {
        "missing": None,
        "empty": "",
        "not a query string": "user",
        "forged with another bot's token": signed_by(other, 5),
        "altered: another person": urlencode({**fields, "user": fields["user"].replace('"id":5', '"id":6')}),
        "altered: a newer date": urlencode({**fields, "auth_date": str(made + 60)}),
        "no hash": urlencode({k: v for k, v in fields.items() if k != "hash"}),
        "nobody named": sign({"auth_date": str(made)}, "42:secret"),
        "no date": sign({"user": fields["user"]}, "42:secret"),
    }
    for what, given in refused.items():
        with pytest.raises(Unauthorized):
            verify(given, "42:secret", now, DAY)
        assert what
    assert verify(data, "42:secret", made + DAY, DAY).user_id == 5  # a day old: still good
    with pytest.raises(Unauthorized, match="too old"):
        verify(data, "42:secret", made + DAY + 1, DAY)


def test_a_ticket_names_its_game_and_nothing_else() -> None:
    token = "42:secret"
    made = ticket(123, token)
    assert re.fullmatch(r"g123_[A-Za-z0-9_-]{12}", made) and game_of(made, token) == 123
    assert game_of(made.replace("g123", "g124"), token) is None  # counting through the games finds nothing
    assert game_of(made, "43:another") is None
    assert game_of(made[:-1] + ("A" if made[-1] != "A" else "B"), token) is None
    assert game_of(None, token) is None and game_of("g123", token) is None


def test_the_mini_app_settings_are_checked() -> None:
    assert Settings(miniapp_url="https://example.org/kozel").miniapp_url == "https://example.org/kozel/"
    assert Settings(miniapp_url="").miniapp_url is None
    for wrong in ("http://example.org/kozel/", "example.org", "https://example.org/?game=1"):
        with pytest.raises(ValidationError, match="HTTPS address"):
            Settings(miniapp_url=wrong)
    with pytest.raises(ValidationError, match="short name"):
        Settings(miniapp_name="my app")
    with pytest.raises(ValidationError):
        Settings(miniapp_max_age_seconds=0)


async def test_telegram_takes_a_web_app_button_only_in_a_private_chat_and_only_to_https() -> None:
    async with server_and_bot(None, GROUP) as (_, bot):

        def keyboard(url: str) -> InlineKeyboardMarkup:
            return InlineKeyboardMarkup([[InlineKeyboardButton("🃏", web_app=WebAppInfo(url))]])

        assert await bot.send_message(5, "hand", reply_markup=keyboard(APP_URL))
        assert await bot.send_message(5, "hand", reply_markup=keyboard("http://127.0.0.1:8081/app/"))  # the playground
        with pytest.raises(BadRequest, match=r"(?i)button_type_invalid"):
            await bot.send_message(GROUP, "table", reply_markup=keyboard(APP_URL))
        with pytest.raises(BadRequest, match=r"(?i)only https"):
            await bot.send_message(5, "hand", reply_markup=keyboard("http://kozel.example/app/"))


# --- a game with the Mini App ----------------------------------------------------------------------------------


@asynccontextmanager
async def app_world(tmp_path: Path, **settings: Any) -> AsyncIterator[World]:
    async with running_world(tmp_path, **(APP | settings)) as world:
        world.server.apps["table"] = APP_URL
        yield world


def miniapp(world: World) -> MiniApp:
    assert world.runner.app is not None
    return cast(MiniApp, world.runner.app.bot_data["miniapp"])


def person(world: World, user_id: int) -> AppUser:
    """The person ``user_id`` as a page of his proves him."""
    return verify(world.server.init_data(user_id), world.server.token, world.server.clock.now(), DAY)


def seated(world: World, user_id: int) -> Person:
    """A person already there (``World.person`` would make him anew)."""
    return Person(world.server, world.runner, user_id, world.server.users[user_id].first_name)


def presses(message: Message) -> list[str]:
    """What the buttons of a hand message press, but the state's version: a hand that nothing changed keeps the
    version it was drawn at (it is not edited for every move at the table), the page is drawn anew."""
    return [VERSION.sub(r"\1:", b["callback_data"]) for b in message.buttons() if "callback_data" in b]


def page_presses(page: dict[str, Any]) -> list[str]:
    return [VERSION.sub(r"\1:", b["data"]) for b in (*page["hand"]["cards"], *page["hand"]["moves"])]


def cards_in(value: Any) -> list[dict[str, Any]]:
    """Every card a page's JSON holds, wherever it is."""
    if isinstance(value, dict):
        found = [value] if set(value) >= {"label", "suit"} else []
        return found + [c for v in value.values() for c in cards_in(v)]
    if isinstance(value, list):
        return [c for v in value for c in cards_in(v)]
    return []


def known_to(view: View) -> set[tuple[str, int]]:
    """The cards ``view`` shows: its own hand, the trick, the last trick, the shown trump card (X1)."""
    cards: set[Card] = set(view.hand)
    for play in (*view.trick, *view.last_trick, *view.deal_log):
        cards.update(play.cards)
    if view.trump_card is not None:
        cards.add(view.trump_card)
    look = presenter(view.variant)
    return {(look.card_label(c), int(c.suit)) for c in cards} | (
        {(look.card_label(look.marked_card), int(look.marked_card.suit))} if look.marked_card is not None else set()
    )


async def four_people(world: World) -> tuple[list[Person], int]:
    """Ann, Bob, Cid and Dan (users 1-4) at four-card Kozel, with no turn timer; the people and the game's id."""
    people = [world.person(i + 1, name) for i, name in enumerate(("Ann", "Bob", "Cid", "Dan"))]
    await configure(world, turn_timer=0)  # nobody's turn passes to a computer while he chooses his cards
    await people[0].say(GROUP, "/newgame four_card")
    lobby = world.group_messages()[-1]
    for one in people:
        await one.join(lobby)
    await people[0].press(world.server.messages[(GROUP, lobby.message_id)], button(lobby, ":start"))
    await world.runner.settle()
    game = await world.runner.storage.games.open_game(GROUP)
    assert game is not None and game.status == "active"
    return people, game.game_id


async def four_card_with_ann_and_bob(world: World) -> int:
    """Ann and Bob (user 1 and 2) sit at four-card Kozel with two computers; the game's id."""
    _, game = await with_computers(world, "/newgame four_card", 2, "Bob")
    await world.runner.settle()
    return game.game_id


async def test_the_hand_carries_the_app_button_and_the_group_table_its_link(tmp_path: Path) -> None:
    async with app_world(tmp_path) as world:
        game_id = await four_card_with_ann_and_bob(world)
        token = world.server.token
        hand = seated(world, 1).hand()
        assert hand is not None and hand.markup is not None
        last = hand.markup["inline_keyboard"][-1]
        assert last == [{"text": t("en", "app.open"), "web_app": {"url": f"{APP_URL}?game={ticket(game_id, token)}"}}]
        row, _ = await world.runner.storage.games.get(game_id), None
        assert row is not None and row.table_message_id is not None
        table = world.server.messages[(GROUP, row.table_message_id)]
        link = f"https://t.me/{BOT_USERNAME}/table?startapp={ticket(game_id, token)}"
        assert table.markup == {"inline_keyboard": [[{"text": t("en", "app.open"), "url": link}]]}
        opened = world.server.open_link(1, link)  # Telegram opens the app with the ticket as its start_param
        assert urlsplit(opened).path == "/app/" and person(world, 1).user_id == 1
        data = dict(parse_qsl(dict(parse_qsl(urlsplit(opened).fragment))["tgWebAppData"]))
        assert data["start_param"] == ticket(game_id, token)


async def test_without_a_mini_app_no_button_opens_one(world: World) -> None:
    await with_computers(world, "/newgame four_card", 3)
    await world.runner.settle()
    assert world.runner.app is not None and "miniapp" not in world.runner.app.bot_data
    everything = [b for chat in (GROUP, 1) for m in world.server.bot_messages(chat) for b in m.buttons()]
    assert everything and not any("web_app" in b or "/table?startapp" in b.get("url", "") for b in everything)


async def test_a_page_holds_what_its_person_may_know_and_the_same_buttons_as_his_hand(tmp_path: Path) -> None:
    """X1: the seated person's page holds his hand and the table as his view shows it; a spectator's, no hand
    and nothing a hand holds.  The page's buttons are his private hand's, press for press."""
    async with app_world(tmp_path) as world:
        game_id = await four_card_with_ann_and_bob(world)
        live = world.runner.uses.games.get(game_id)
        assert live is not None
        for user_id in (1, 2):
            page = page_state(live, user_id, "en")
            seat = live.seat_of(user_id)
            assert page["you"] == seat is not None
            view = live.state.view(seat)
            assert {(c["label"], c["suit"]) for c in cards_in(page)} <= known_to(view)
            hand = seated(world, user_id).hand()
            assert hand is not None
            assert page_presses(page) == presses(hand)
        spectator = page_state(live, 99, "ru")
        assert spectator["hand"] is None and spectator["you"] is None and spectator["lang"] == "ru"
        held = {(presenter(live.game.variant).card_label(c), int(c.suit)) for h in live.state.hands for c in h}
        public = known_to(live.state.view(None))
        assert not ({(c["label"], c["suit"]) for c in cards_in(spectator)} & (held - public))


async def test_a_deal_played_by_two_in_the_app_and_two_by_buttons_agrees_everywhere(tmp_path: Path) -> None:
    """Ann and Cid tap in the Mini App, Bob and Dan press their hands' buttons; after every move each page holds
    the buttons of its person's private hand, the group's table caption is the page's, and the game is what the
    database holds."""
    rng = random.Random(47)
    async with app_world(tmp_path) as world:
        people, game_id = await four_people(world)
        app = miniapp(world)
        in_app = {1: person(world, 1), 3: person(world, 3)}
        taps = presses = 0
        while True:
            live = world.runner.uses.games.get(game_id)
            assert live is not None
            if live.state.deals:
                break
            seat = live.state.to_move
            assert seat is not None
            user_id = live.seats[seat].user_id
            assert user_id is not None
            if user_id in in_app:
                page = page_state(live, user_id, "en")
                choice = app_choice(page, rng)
                assert choice is not None, page["hand"]
                status, answer = await app.tap(in_app[user_id], game_id, choice)
                assert status == 200 and answer["alert"] is None, answer
                taps += 1
            else:
                assert await play_turn(people[user_id - 1], rng)
                presses += 1
            await world.runner.settle()
            await agree(world, game_id, in_app)
            assert taps + presses < 400
        assert taps > 5 and presses > 5
        row = await world.runner.storage.games.get(game_id)
        assert row is not None and row.action_count == len(live.state.history)


async def agree(world: World, game_id: int, in_app: dict[int, AppUser]) -> None:
    live = world.runner.uses.games.get(game_id)
    if live is None or live.state.deals:
        return
    row = await world.runner.storage.games.get(game_id)
    assert row is not None and row.action_count == live.version  # what the page shows is stored
    for user_id in in_app:
        page = page_state(live, user_id, "en")
        hand = seated(world, user_id).hand()  # none once his last card is played: no button left
        assert page_presses(page) == (presses(hand) if hand is not None else []), page["hand"]
    assert row.table_message_id is not None
    table = world.server.messages[(GROUP, row.table_message_id)]
    page = page_state(live, 1, "en")
    if table.photo is not None:
        assert lines(table.text) == page["caption"]


async def test_a_stale_a_foreign_or_a_forged_tap_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with app_world(tmp_path) as world:
        _, game_id = await four_people(world)
        app = miniapp(world)
        live = world.runner.uses.games.get(game_id)
        assert live is not None and live.state.to_move is not None
        owner = live.seats[live.state.to_move].user_id
        assert owner is not None
        played = Play(game_id, live.version, live.state.legal_actions(live.state.to_move)[0]).data()
        status, answer = await app.tap(person(world, owner), game_id, played)
        assert status == 200 and answer["alert"] is None and answer["state"]["version"] == live.version == 1
        assert live.state.to_move is not None
        next_one = Play(game_id, 1, live.state.legal_actions(live.state.to_move)[0]).data()
        outsider = next(u for u in (1, 2, 3) if u not in (owner, live.seats[live.state.to_move].user_id))
        cases = {
            "stale": (owner, played, t(live.lang_of(live.seat_of(owner) or 0), "press.stale")),
            "somebody else's seat": (outsider, next_one, None),
            "a spectator": (99, next_one, t(live.chat_lang, "press.not_yours")),
        }
        world.server.add_user(99, "Eve")
        for what, (user_id, data, alert) in cases.items():
            status, answer = await app.tap(person(world, user_id), game_id, data)
            assert status == 200 and answer["refused"], what
            assert alert is None or answer["alert"] == alert, (what, answer["alert"])
            assert live.version == 1 and answer["state"]["version"] == 1, what
        wrong: tuple[object, ...] = ("g1:1:zz", "L1:leave", "nonsense", 17, Play(game_id + 1, 1, live.state.history[0]).data())
        for forged in wrong:
            status, answer = await app.tap(person(world, owner), game_id, forged)
            assert status == 400 and answer["refused"] and live.version == 1, forged
        assert app.requests["forged"] == len(wrong)
        row = await world.runner.storage.games.get(game_id)
        assert row is not None and row.action_count == 1


def request(method: str, path: str, init_data: str | None, body: Any = None) -> web.Request:
    headers = {"X-Telegram-Init-Data": init_data} if init_data is not None else {}
    made = make_mocked_request(method, path, headers=headers)
    if body is not None:

        async def payload() -> Any:
            return body

        made.json = payload  # type: ignore[method-assign,assignment]
    return made


async def test_every_request_without_good_init_data_is_answered_401_and_changes_nothing(tmp_path: Path) -> None:
    async with app_world(tmp_path, computer_pause_seconds=3600.0) as world:
        game_id = await four_card_with_ann_and_bob(world)
        app = miniapp(world)
        live = world.runner.uses.games.get(game_id)
        assert live is not None and live.state.to_move is not None
        version = live.version
        owner = live.seats[live.state.to_move].user_id or 1
        action = live.state.legal_actions(live.state.to_move)[0]
        game = ticket(game_id, world.server.token)
        good = world.server.init_data(owner)
        fields = dict(parse_qsl(good))
        other = BotApiServer(token="43:another")
        other.add_user(owner, "Ann")
        bad = {
            "missing": None,
            "forged": other.init_data(owner),
            "altered": urlencode({**fields, "user": fields["user"].replace(f'"id":{owner}', '"id":2')}),
            "expired": sign({**fields, "auth_date": str(int(fields["auth_date"]) - int(DAY) - 1)}, world.server.token),
        }
        for what, init_data in bad.items():
            for handler, made in (
                (app.h_state, request("GET", f"/app/api/state?game={game}", init_data)),
                (app.h_events, request("GET", f"/app/api/events?game={game}", init_data)),
                (app.h_press, request("POST", "/app/api/press", init_data,
                                      {"game": game, "data": Play(game_id, version, action).data()})),
            ):  # fmt: skip
                with pytest.raises(web.HTTPUnauthorized) as refused:
                    await handler(made)
                assert json.loads(refused.value.text or "{}")["text"] == t("en", "app.unauthorized"), what
        assert app.requests["unauthorized"] == 3 * len(bad)
        assert live.version == version and app.requests["press"] == 0
        row = await world.runner.storage.games.get(game_id)
        assert row is not None and row.action_count == version


async def test_an_unknown_table_is_answered_404(tmp_path: Path) -> None:
    async with app_world(tmp_path) as world:
        game_id = await four_card_with_ann_and_bob(world)
        app = miniapp(world)
        good = world.server.init_data(1)
        for game in ("g1", f"g{game_id}_AAAAAAAAAAAA", ticket(game_id, "43:another")):
            with pytest.raises(web.HTTPNotFound) as refused:
                await app.h_state(request("GET", f"/app/api/state?game={game}", good))
            assert json.loads(refused.value.text or "{}")["gone"] is True
        response = await app.h_state(request("GET", f"/app/api/state?game={ticket(game_id, world.server.token)}", good))
        assert json.loads(cast(bytes, response.body))["game"] == game_id


async def test_a_page_hears_of_every_change_and_resumes_with_the_newest(tmp_path: Path) -> None:
    """A press in the private chat reaches the page's stream; a new stream (a dropped one reconnected) starts
    with the newest state; a stream says when its game is gone and ends."""
    async with app_world(tmp_path) as world:
        _, game_id = await four_people(world)
        app = miniapp(world)
        live = world.runner.uses.games.get(game_id)
        assert live is not None
        ann = person(world, 1)
        stream = app.pages(ann, game_id)
        first = await anext(stream)
        assert first is not None and first["version"] == live.version
        mover = live.state.to_move
        assert mover is not None
        user_id = live.seats[mover].user_id
        assert user_id is not None
        assert await play_turn(seated(world, user_id), random.Random(1))
        await world.runner.settle()
        changed = await anext(stream)
        while changed is None or changed["version"] == first["version"]:  # a choice first, then the move
            changed = await anext(stream)
        assert changed["version"] == live.version
        await stream.aclose()
        reconnected = app.pages(ann, game_id)
        again = await anext(reconnected)
        assert again is not None and again["version"] == live.version
        await reconnected.aclose()
        assert len(app.watchers) == 0  # the closed streams watch no more
        watching = app.pages(ann, game_id)
        await anext(watching)
        await seated(world, 1).say(GROUP, "/cancel")  # she opened it: it ends at once
        await world.runner.settle()
        last = await anext(watching)
        while last is None or not last.get("gone"):
            last = await anext(watching)
        assert last["text"] == t("en", "app.gone")
        with pytest.raises(StopAsyncIteration):
            await anext(watching)



async def test_the_mini_app_costs_no_bot_api_call(tmp_path: Path) -> None:
    """The same deal, the same presses, with the Mini App and without: not one Bot API call more (its buttons
    ride on the messages the bot sends anyway, and nothing of a page goes through Telegram)."""
    counts = []
    for name, settings in (("without", {}), ("with", APP)):
        async with running_world(tmp_path / name, **settings) as world:
            people, game_id = await four_people(world)
            rng = random.Random(46)
            while (live := world.runner.uses.games.get(game_id)) is not None and not live.state.deals:
                mover = next(p for p in people if p.my_turn())
                assert await play_turn(mover, rng)
                await world.runner.settle()
            counts.append(Counter(c.method for c in world.server.calls if c.method not in ("getUpdates",)))
    without, with_app = counts
    assert sum(without.values()) > 50
    assert with_app == without


async def test_a_page_is_drawn_once_for_all_who_see_it_alike_and_anew_after_any_change(tmp_path: Path) -> None:
    async with app_world(tmp_path) as world:
        _, game_id = await four_people(world)
        app = miniapp(world)
        live = world.runner.uses.games.get(game_id)
        assert live is not None and live.state.to_move is not None
        for user_id in (98, 99):
            world.server.add_user(user_id, f"Watcher {user_id}")
        first = await app.read(game_id, person(world, 98))
        assert await app.read(game_id, person(world, 99)) is first and app.requests["drawn once"] == 1
        mover = live.seats[live.state.to_move].user_id
        assert mover is not None
        page = await app.read(game_id, person(world, mover))
        toggle = next((c["data"] for c in page["hand"]["cards"] if c["state"] == "playable"), None)
        assert toggle is not None  # a lead of four-card Kozel: cards are chosen, then led
        _, answer = await app.tap(person(world, mover), game_id, toggle)  # his page changes, and only his
        assert [c["state"] for c in answer["state"]["hand"]["cards"]].count("chosen") == 1
        assert await app.read(game_id, person(world, 99)) is first
        play = next(c["data"] for c in (await app.read(game_id, person(world, mover)))["hand"]["cards"]
                    if c["state"] in ("at_once", "discard_at_once", "chosen"))  # fmt: skip
        if ":t" in play:  # the chosen card's move
            play = next(m["data"] for m in (await app.read(game_id, person(world, mover)))["hand"]["moves"] if ":a" in m["data"])
        status, answer = await app.tap(person(world, mover), game_id, play)
        assert status == 200 and answer["alert"] is None
        after = await app.read(game_id, person(world, 99))
        assert after is not first and after["version"] == first["version"] + 1
