"""The lobby use case without Telegram: opening, joining, seats, who may start or cancel, and the start."""

from __future__ import annotations

from pathlib import Path

from bot.callbacks import Lobby, LobbyOp, Sit
from bot.i18n import t
from bot.usecases.events import DealOpened, Edit, Say
from bot.usecases.lobby import OpenLink, join_link
from engine import find_variant, variant_names
from tests.usecases import CHAT, bench, no, people, yes


async def test_opening_posts_the_lobby_once_per_chat(tmp_path: Path) -> None:
    """RULES X2: one open game per chat."""
    async with bench(tmp_path, seed=1234) as b:
        ann = people(1)[0]
        assert await b.lobbies.open(CHAT, "classic", ann, "en") is None
        (posted,) = b.told.take()
        assert isinstance(posted, Say) and posted.chat_id == CHAT and posted.lobby_of is not None
        game = await b.storage.games.get(posted.lobby_of)
        assert game is not None and game.status == "lobby" and game.seed == 1234  # the seed source is ours
        assert await b.lobbies.open(CHAT, "czech", ann, "en") == t("en", "lobby.exists")


async def test_joining_seats_each_person_once_until_the_table_is_full(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        five = people(5)
        await b.lobbies.open(CHAT, "four_card", five[0], "en")
        game = await b.storage.games.open_game(CHAT)
        assert game is not None
        done = t("en", "join.done", game=t("en", "game.four_card"), chat="Friends")
        for person in five[:4]:
            assert await b.lobbies.join(game.game_id, "en", person) == done
        assert await b.lobbies.join(game.game_id, "en", five[1]) == t("en", "join.already", chat="Friends")
        assert await b.lobbies.join(game.game_id, "en", five[4]) == t("en", "lobby.full")
        seats = await b.storage.games.seats(game.game_id)
        assert [s.user_id for s in seats] == [1, 2, 3, 4]
        told = b.told.take()  # the lobby posted, then shown anew after each of the four who sat down
        assert isinstance(told[0], Say) and len(told) == 5 and all(isinstance(e, Edit) for e in told[1:])
        assert b.told.under_lock == 0


async def test_only_the_creator_or_an_admin_starts_and_admins_are_asked_only_then(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        ann, bob, cid = people(3)
        await b.lobbies.open(CHAT, "czech", ann, "en")
        game = await b.storage.games.open_game(CHAT)
        assert game is not None
        for person in (ann, bob, cid):
            await b.lobbies.join(game.game_id, "en", person)
        asked = 0

        async def never() -> bool:
            nonlocal asked
            asked += 1
            return False

        start = Lobby(game.game_id, LobbyOp.START)
        assert await b.lobbies.press(start, bob, never) == t("en", "lobby.only_creator", name="P1")
        assert asked == 1
        assert await b.lobbies.press(Lobby(game.game_id, LobbyOp.LEAVE), bob, never) == t("en", "lobby.left")
        assert asked == 1  # leaving needs no admin
        assert await b.lobbies.press(start, ann, never) == t("en", "lobby.need_players_czech", count=2)
        assert asked == 1  # the creator needs no admin either
        await b.lobbies.press(Lobby(game.game_id, LobbyOp.ADD_COMPUTER), ann, no)
        b.told.take()
        assert await b.lobbies.press(start, cid, yes) is None  # an admin may
        row = await b.storage.games.get(game.game_id)
        assert row is not None and row.status == "active" and row.options == {"players": 3}
        live = b.games.get(game.game_id)
        assert live is not None and live.state.num_players == 3
        assert any(isinstance(e, DealOpened) and e.live is live for e in b.told.take())
        assert b.told.under_lock == 0


async def test_seats_are_chosen_in_team_games_only(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        ann, bob = people(2)
        for variant in variant_names():
            allowed = find_variant(variant).teams
            await b.lobbies.open(CHAT, variant, ann, "en")
            game = await b.storage.games.open_game(CHAT)
            assert game is not None
            await b.lobbies.join(game.game_id, "en", ann)
            moved = await b.lobbies.press(Sit(game.game_id, 2), ann, no)
            seats = [s.seat for s in await b.storage.games.seats(game.game_id)]
            if allowed:
                assert moved == t("en", "lobby.moved", seat=3) and seats == [2]
            else:
                assert moved == t("en", "lobby.seat_taken") and seats == [0]
            outsider = await b.lobbies.press(Sit(game.game_id, 2), bob, no)
            if allowed:  # someone not in the game pressing a taken seat is told so
                assert outsider == t("en", "lobby.seat_taken")
                free = await b.lobbies.press(Sit(game.game_id, 1), bob, no)  # a free one: he joins through the link
                assert free == OpenLink(join_link(b.lobbies.bot_username, game.game_id, 1))
                await b.lobbies.join(game.game_id, "en", bob, seat=1)
                assert {s.seat: s.user_id for s in await b.storage.games.seats(game.game_id)}[1] == bob.user_id
            else:  # seats follow arrival: the link joins him at the next free one
                assert outsider == OpenLink(join_link(b.lobbies.bot_username, game.game_id))
            assert await b.lobbies.press(Lobby(game.game_id, LobbyOp.CANCEL), ann, no) is None
            told = b.told.take()
            assert isinstance(told[-1], Edit) and told[-1].text == t("en", "lobby.cancelled")
            cancelled = await b.storage.games.get(game.game_id)
            assert cancelled is not None and cancelled.status == "cancelled"


async def test_an_idle_lobby_expires_and_a_closed_one_refuses_presses(tmp_path: Path) -> None:
    async with bench(tmp_path) as b:
        ann = people(1)[0]
        await b.lobbies.open(CHAT, "classic", ann, "en")
        game = await b.storage.games.open_game(CHAT)
        assert game is not None
        await b.lobbies.expire(game.game_id)
        row = await b.storage.games.get(game.game_id)
        assert row is not None and row.status == "cancelled"
        assert await b.lobbies.press(Lobby(game.game_id, LobbyOp.START), ann, yes) == t("en", "lobby.gone")
        assert await b.lobbies.join(game.game_id, "en", ann) == t("en", "join.gone")
