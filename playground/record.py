"""Record a whole game as its players see it.

``python -m playground.record --lang ru --game four_card`` runs the real bot against the embedded Bot API
server, lets simulated people open a game in a group, join it through the deep link, play it to its end
(each taps a card, or chooses cards and then the move button, as a person would) and ask for ``/score``
midway and at the end, then prints every chat — the group and each private chat — in order: what each person
wrote, each message the bot sent and each later version of it after an edit (consecutive identical versions
once), deletions, and the toasts and alerts that answered a press.  Read it to see a session as the players
saw it.  A picture the bot sent (the group's table, a deal's result) is named in the transcript where it was
shown (``🖼 picture-007.jpg``) and kept as that file in a folder beside the transcript (``--out``'s name with
``-pictures``, or ``--pictures``): look at them beside what the chats said.

Options: ``--game`` (a game's name; ``--help`` lists them), ``--lang`` (``en``, ``ru``, ``cs``),
``--players`` (in a game for 3 to 6, how many), ``--seed`` (the game's deal and the people's choices), ``--computers``
(that many seats go to computer players), ``--pace`` (seconds between two moves), ``--final`` (only each
message's last version), ``--table`` (``picture`` or ``text``: the group's setting), ``--out`` (a file
instead of standard output), ``--pictures`` (the folder of the pictures).
"""

from __future__ import annotations

import argparse
import asyncio
import html
import random
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bot.app import build_application, polling_errors, stop_application
from bot.clock import Clock
from bot.config import Settings
from bot.i18n import t
from engine.registry import default_variant_name, variant_names
from playground.botapi import BotApiServer, Message
from playground.inprocess import InProcessRequest
from playground.virtual_time import VirtualTimeLoop
from storage import Storage

GROUP = -100100
GAME_DATA = re.compile(r"g(\d+):(\d+):(.+)")
NAMES = {
    "en": ("Ann", "Bob", "Cid", "Dan", "Eve", "Fay"),
    "ru": ("Аня", "Борис", "Вера", "Гоша", "Даша", "Егор"),
    "cs": ("Jana", "Petr", "Eva", "Tomáš", "Lucie", "Marek"),
}
GROUP_TITLE = {"en": "Friends", "ru": "Друзья", "cs": "Přátelé"}


def plain(text: str) -> str:
    """A message's HTML as the reader sees it: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", text))


def keyboard(markup: dict[str, Any] | None) -> list[str]:
    """Inline buttons, one line per row: ``[ 6♠ ] [ 7♠ ]``."""
    rows = (markup or {}).get("inline_keyboard", [])
    return ["  " + " ".join(f"[ {b['text']} ]" for b in row) for row in rows if row]


@dataclass
class Entry:
    """One thing a chat showed."""

    chat_id: int
    kind: str  # "wrote", "new", "edit", "delete", "answer", "press"
    message_id: int
    text: str
    markup: dict[str, Any] | None = None
    who: str = ""
    picture: str = ""  # the file name of the picture it showed, if any


@dataclass
class Recorder:
    """Listens to the server and keeps, per chat, everything it showed in order."""

    server: BotApiServer
    names: dict[int, str]
    entries: list[Entry] = field(default_factory=list)
    last: dict[tuple[int, int], tuple[str, str, str]] = field(default_factory=dict)
    pictures: dict[str, bytes] = field(default_factory=dict)  # file name -> the picture
    named: dict[str, str] = field(default_factory=dict)  # the server's file id -> its file name here

    def __call__(self, kind: str, subject: Any) -> None:
        if kind == "answer":
            query_id, params = subject
            text = params.get("text") or ""
            url = params.get("url")
            user = self.server.pressed_by.get(query_id, 0)
            if text or url:
                what = "alert" if params.get("show_alert") else "toast"
                said = f"{what}: {text}" if text else f"opens {url}"
                chat = self.pressed_in.get(query_id, user)
                self.entries.append(Entry(chat, "answer", 0, said, who=self.names.get(user, "?")))
            return
        assert isinstance(subject, Message)
        message = subject
        key = (message.chat_id, message.message_id)
        if kind == "delete":
            self.entries.append(Entry(message.chat_id, "delete", message.message_id, ""))
            return
        if not message.from_bot:
            self.entries.append(Entry(message.chat_id, "wrote", message.message_id, message.text,
                                      who=self.names.get(message.from_user or 0, "?")))  # fmt: skip
            return
        picture = self.keep(message.photo) if message.photo is not None else ""
        shown = (message.text, repr(message.markup), picture)
        if self.last.get(key) == shown:
            return
        self.last[key] = shown
        self.entries.append(Entry(message.chat_id, kind, message.message_id, message.text, message.markup,
                                  picture=picture))  # fmt: skip

    def keep(self, file_id: str) -> str:
        """The file name of a picture the bot sent, kept the first time it is shown."""
        if file_id not in self.named:
            name = self.named[file_id] = f"picture-{len(self.named) + 1:03}.jpg"
            self.pictures[name] = self.server.photos[file_id]
        return self.named[file_id]

    pressed_in: dict[str, int] = field(default_factory=dict)  # callback query id -> the chat of its message

    def pressed(self, query_id: str, user_id: int, message: Message, label: str) -> None:
        self.pressed_in[query_id] = message.chat_id
        self.entries.append(Entry(message.chat_id, "press", message.message_id, label, who=self.names[user_id]))

    def render(self, chat_id: int, title: str, final: bool) -> str:
        """One chat's transcript."""
        out = [f"═══ {title} ═══", ""]
        entries = [e for e in self.entries if e.chat_id == chat_id]
        if final:
            latest = {e.message_id: e for e in entries if e.kind in ("new", "edit")}
            deleted = {e.message_id for e in entries if e.kind == "delete"}
        for entry in entries:
            if entry.kind == "wrote":
                out += [f"✍ {entry.who}: {entry.text}", ""]
            elif entry.kind == "press":
                out += [f"👆 {entry.who} taps [ {entry.text} ] under #{entry.message_id}", ""]
            elif entry.kind == "answer":
                out += [f"💬 ({entry.who}) {entry.text}", ""]
            elif entry.kind == "delete":
                if not final:
                    out += [f"🗑 #{entry.message_id} deleted", ""]
            elif final:
                if entry.kind == "new":
                    shown = latest[entry.message_id]
                    gone = " (deleted later)" if entry.message_id in deleted else ""
                    out += [f"── #{entry.message_id}{gone} ──", *shows(shown)]
            else:
                head = "new" if entry.kind == "new" else "edited"
                out += [f"── #{entry.message_id} {head} ──", *shows(entry)]
        return "\n".join(out)


def shows(entry: Entry) -> list[str]:
    """What a message showed: its picture by file name, its text (a picture's caption), its buttons."""
    picture = [f"🖼 {entry.picture}"] if entry.picture else []
    return [*picture, plain(entry.text), *keyboard(entry.markup), ""]


@dataclass
class Player:
    user_id: int
    name: str


class Session:
    def __init__(self, server: BotApiServer, recorder: Recorder, settle: Callable[[], Any]) -> None:
        self.server = server
        self.recorder = recorder
        self.settle = settle

    async def say(self, player: Player, chat_id: int, text: str) -> None:
        await self.server.send_text(player.user_id, chat_id, text)
        await self.settle()

    async def press(self, player: Player, message: Message, data: str) -> dict[str, Any]:
        label = next((b["text"] for b in message.buttons() if b.get("callback_data") == data), data)
        query_id = await self.server.press(player.user_id, message, data)
        self.recorder.pressed(query_id, player.user_id, message, label)
        answer = await self.server.answer_of(query_id)
        await self.settle()
        return answer

    def hand(self, player: Player) -> Message | None:
        for message in reversed(self.server.bot_messages(player.user_id)):
            if any(GAME_DATA.fullmatch(b.get("callback_data", "")) for b in message.buttons()):
                return message
        return None

    def choices(self, player: Player) -> tuple[Message | None, list[str], list[str]]:
        message = self.hand(player)
        if message is None:
            return None, [], []
        actions, toggles = [], []
        for b in message.buttons():
            match = GAME_DATA.fullmatch(b.get("callback_data", ""))
            if match and match[3].startswith("a"):
                actions.append(b["callback_data"])
            elif match and match[3].startswith("t") and not b["text"].startswith("·"):
                toggles.append(b["callback_data"])
        return message, actions, toggles

    async def move(self, player: Player, rng: random.Random) -> bool:
        """One move as a person makes it: a playable card, or a few cards chosen and then the move button."""
        for _ in range(8):
            message, actions, toggles = self.choices(player)
            if message is None:
                return False
            if actions and (not toggles or rng.random() < 0.6):
                await self.press(player, message, rng.choice(actions))
                return True
            if not toggles:
                return False
            await self.press(player, message, rng.choice(toggles))
        return False


@dataclass(frozen=True)
class Recording:
    """A recorded game: its transcript, and the pictures it names by file name."""

    text: str
    pictures: dict[str, bytes]


async def record(
    game: str,
    lang: str,
    *,
    players: int,
    seed: int,
    computers: int = 0,
    pace: float = 0.0,
    final: bool = False,
    table: str = "picture",
) -> Recording:
    clock = Clock.following_the_loop()
    server = BotApiServer(clock=clock)  # in process, on the loop's (virtual) time: see ``main``
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            bot_token=server.token,  # type: ignore[arg-type]
            database_path=Path(folder) / "bot.db",
            telegram_base_url=server.base_url,
            computer_workers=0,
            computer_pause_seconds=0.2,
            turn_ping_seconds=5.0,
        )
        transport = partial(InProcessRequest, server)
        app = build_application(settings, seeds=lambda: seed, clock=Clock(wall=clock.now), transport=transport)
        await app.initialize()
        if app.post_init:
            await app.post_init(app)
        assert app.updater is not None
        await app.updater.start_polling(
            poll_interval=0.0, timeout=settings.poll_timeout_seconds, error_callback=polling_errors(app)
        )
        await app.start()
        people = [Player(i + 1, NAMES[lang][i]) for i in range(players)]
        names = {p.user_id: p.name for p in people}
        recorder = Recorder(server, names)
        server.listeners.append(recorder)
        for person in people:
            server.add_user(person.user_id, person.name, lang)
        server.add_group(GROUP, GROUP_TITLE[lang], admins={1})
        storage = app.bot_data["storage"]
        assert isinstance(storage, Storage)
        chosen = (await storage.chats.known(GROUP)).settings.model_copy(update={"table": table, "language": lang})
        await storage.chats.save_settings(GROUP, chosen)

        async def settle() -> None:
            await server.settled()
            await clock.wait_for(app.update_queue.join(), 30)
            uses = app.bot_data.get("uses")
            if uses is not None:  # the tellings the handlers left going
                await clock.wait_for(uses.notifier.background.told(), 30)
            flush = getattr(app.bot_data.get("publisher"), "flush", None)
            if flush is not None:
                await flush()
            await server.settled()

        session = Session(server, recorder, settle)
        rng = random.Random(seed)
        try:
            await play(session, people, game, lang, computers=computers, rng=rng, pace=pace)
        finally:
            await stop_application(app)
            await server.stop()
    parts = [recorder.render(GROUP, f"{GROUP_TITLE[lang]} (group)", final)]
    parts += [recorder.render(p.user_id, f"{p.name} (private chat with the bot)", final) for p in people]
    return Recording("\n\n".join(parts) + "\n", recorder.pictures)


async def play(
    session: Session, people: list[Player], game: str, lang: str, *, computers: int, rng: random.Random, pace: float
) -> None:
    server = session.server
    creator = people[0]
    await session.say(creator, GROUP, f"/newgame {t(lang, f'newgame.arg.{game}')}")
    lobby = server.bot_messages(GROUP)[-1]
    for person in people[: len(people) - computers]:
        url = next(b["url"] for b in server.messages[(GROUP, lobby.message_id)].buttons() if "url" in b)
        await session.say(person, person.user_id, "/start " + url.split("?start=")[1])
    for _ in range(computers):
        lobby = server.messages[(GROUP, lobby.message_id)]
        add = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":bot"))
        await session.press(creator, lobby, add)
    lobby = server.messages[(GROUP, lobby.message_id)]
    start = next(b["callback_data"] for b in lobby.buttons() if b.get("callback_data", "").endswith(":start"))
    await session.press(creator, lobby, start)
    humans = people[: len(people) - computers]
    asked_score = False
    idle = moves = 0
    while True:
        tables = [m for m in server.bot_messages(GROUP) if m.text.startswith(("🐐🐐", "🏆")) or "🏆" in m.text]
        if tables:
            break
        movers = [p for p in humans if (hand := session.hand(p)) is not None and "👉" in hand.text]
        if not movers:
            idle += 1
            if idle > 400:
                raise RuntimeError("nobody can move, and the game is not over")
            await session.server.clock.sleep(0.05)
            await session.settle()
            continue
        idle = 0
        moves += 1
        if moves > 5000:
            raise RuntimeError("the game did not end in 5000 moves")
        if moves % 50 == 0:
            print(f"{moves} moves", file=sys.stderr)
        if await session.move(rng.choice(movers), rng) and pace:
            await session.server.clock.sleep(pace)
        deals = sum(1 for m in server.bot_messages(GROUP) if "📋" in m.text)
        if not asked_score and deals >= 1:
            await session.say(people[1], GROUP, "/score")
            asked_score = True
    await session.say(people[1], GROUP, "/score")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m playground.record", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=variant_names(), default=default_variant_name())
    parser.add_argument("--lang", choices=tuple(NAMES), default="en")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--computers", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.0)
    parser.add_argument("--final", action="store_true")
    parser.add_argument("--table", choices=("picture", "text"), default="picture")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--pictures", type=Path, help="where the pictures go (default: beside --out)")
    args = parser.parse_args(argv)
    # On virtual time, at Telegram's own limits: a whole series takes seconds, however long it would at the real clock.
    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        recording = runner.run(
            record(args.game, args.lang, players=args.players, seed=args.seed, computers=args.computers,
                   pace=args.pace, final=args.final, table=args.table)
        )  # fmt: skip
    if args.out:
        args.out.write_text(recording.text, encoding="utf-8")
    else:
        sys.stdout.write(recording.text)
    folder = args.pictures or (args.out.with_name(args.out.stem + "-pictures") if args.out else None)
    if folder is not None and recording.pictures:
        folder.mkdir(parents=True, exist_ok=True)
        for name, content in recording.pictures.items():
            (folder / name).write_bytes(content)
        print(f"{len(recording.pictures)} pictures in {folder}", file=sys.stderr)
    elif recording.pictures:
        print(f"{len(recording.pictures)} pictures not kept: give --out or --pictures", file=sys.stderr)


if __name__ == "__main__":
    main()
