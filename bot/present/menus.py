"""Pure renders of the menus around a game: the lobby, a cancel vote, /kick's choices, /settings, /stats, /rules.

Texts are HTML (names are escaped here); each button's data is a typed press from ``bot.callbacks``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Kick, Lobby, LobbyOp, Setting, Sit, Vote
from bot.delivery.sending import MAX_TEXT, telegram_length
from bot.i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES, t
from bot.present import GAMES, Presenter, Seating, game_title, presenter
from bot.present.base import MenuOption
from engine import Options, find_variant
from storage.models import ChatSettings

Rendered = tuple[str, InlineKeyboardMarkup | None]


# --- the lobby ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LobbySeat:
    seat: int
    name: str
    computer: bool = False


def render_lobby(
    game_id: int,
    variant: str,
    options: dict[str, object],
    seats: Sequence[LobbySeat],
    *,
    bot_username: str,
    lang: str,
) -> tuple[str, InlineKeyboardMarkup]:
    shown = presenter(variant)
    lines = lobby_head(variant, options, lang)
    rows: list[list[InlineKeyboardButton]] = []
    if shown.choose_seats:
        lines.append(t(lang, "lobby.seats_team"))
        by_seat = {s.seat: s for s in seats}
        for seat in range(shown.capacity):
            holder = by_seat.get(seat)
            name = escape(holder.name) if holder else t(lang, "lobby.empty_seat")
            lines.append(f"  {seat + 1}. {name}")
        sit = [
            InlineKeyboardButton(t(lang, "lobby.sit", seat=s + 1), callback_data=Sit(game_id, s).data())
            for s in range(shown.capacity)
            if s not in by_seat
        ]
        if sit and seats:
            rows.append(sit)
    else:
        counts = shown.variant.players
        lines.append(t(lang, "lobby.seats_in_turn", count=len(seats), fewest=min(counts), most=max(counts)))
        for index, holder in enumerate(sorted(seats, key=lambda s: s.seat)):
            lines.append(f"  {index + 1}. {escape(holder.name)}")
    capacity = shown.capacity
    full = len(seats) >= capacity
    lines += ["", t(lang, "lobby.all_seated" if full else "lobby.how")]
    if not full:
        join_url = f"https://t.me/{bot_username}?start=j{game_id}"  # bot.usecases.lobby.join_link
        rows.insert(0, [InlineKeyboardButton(t(lang, "lobby.join"), url=join_url)])
    computers = (
        [InlineKeyboardButton(t(lang, "lobby.add_computer"), callback_data=Lobby(game_id, LobbyOp.ADD_COMPUTER).data())]
        if not full
        else []
    )
    if any(s.computer for s in seats):
        computers.append(
            InlineKeyboardButton(
                t(lang, "lobby.remove_computer"), callback_data=Lobby(game_id, LobbyOp.REMOVE_COMPUTER).data()
            )
        )
    if computers:
        rows.append(computers)
    rows.append(
        [
            InlineKeyboardButton(t(lang, "lobby.leave"), callback_data=Lobby(game_id, LobbyOp.LEAVE).data()),
            InlineKeyboardButton(t(lang, "lobby.start"), callback_data=Lobby(game_id, LobbyOp.START).data()),
            InlineKeyboardButton(t(lang, "lobby.cancel"), callback_data=Lobby(game_id, LobbyOp.CANCEL).data()),
        ]
    )
    return "\n".join(lines), InlineKeyboardMarkup(rows)


# --- /cancel, /kick, /settings, /stats --------------------------------------------------------------------------


def lobby_head(variant: str, options: dict[str, object], lang: str) -> list[str]:
    """The lobby's title, and the game's options when it has any."""
    lines = [t(lang, "lobby.title", game=game_title(variant, lang))]
    if options and (described := presenter(variant).options_line(options, lang)):
        lines.append(t(lang, "lobby.options", options=described))
    return lines


def render_lobby_started(variant: str, options: dict[str, object], seats: Sequence[LobbySeat], lang: str) -> str:
    """The lobby's message once its game has begun and the table is a message of its own: who plays (the
    teams, or the players in their order)."""
    seating = Seating(tuple(s.name for s in sorted(seats, key=lambda s: s.seat)))
    if presenter(variant).choose_seats:
        who = [seating.team(0, lang), seating.team(1, lang)]
    else:
        who = [", ".join(seating.name(seat) for seat in range(len(seating.names)))]
    head = lobby_head(variant, options, lang)[1:]  # the options, under the title of a game that has begun
    return "\n".join([t(lang, "lobby.started", game=game_title(variant, lang)), *head, *who])


def render_cancel_vote(game_id: int, *, proposer: str, votes: int, needed: int, total: int, lang: str) -> Rendered:
    """The vote to cancel a game: who proposed it, how many must agree, and the button to agree."""
    label = t(lang, "cancel.vote_button", votes=votes, needed=needed)
    button = InlineKeyboardButton(label, callback_data=Vote(game_id).data())
    return t(lang, "cancel.vote", name=escape(proposer), needed=needed, total=total), InlineKeyboardMarkup([[button]])


def render_kick_choices(game_id: int, seating: Seating, seats: Sequence[int], lang: str) -> Rendered:
    """/kick without a reply: one button per person at the table whose seat can go to a computer player."""
    buttons = [
        [
            InlineKeyboardButton(
                t(lang, "kick.button", name=seating.names[s]), callback_data=Kick(game_id, s).data()
            )
        ]
        for s in seats
    ]
    return t(lang, "kick.usage"), InlineKeyboardMarkup(buttons) if buttons else None


TIMER_CHOICES = (0, 30, 60, 120, 300)
LEVEL_CHOICES = ("random", "basic", "strong", "expert")
TABLE_CHOICES = ("picture", "text")


def _next(choices: Sequence[Any], current: Any) -> Any:
    return choices[(choices.index(current) + 1) % len(choices)] if current in choices else choices[0]


def _game_options(settings: ChatSettings, variant: str) -> Options:
    """The chat's options of a game, its model's defaults where the chat set none."""
    return find_variant(variant).options(settings.options.get(variant, {}))


def render_settings(settings: ChatSettings, chat_title: str, lang: str) -> Rendered:
    """The /settings menu: the chat's settings, each with a button that switches it to its next value."""
    timer = t(lang, "settings.seconds", n=settings.turn_timer) if settings.turn_timer else t(lang, "settings.off")
    language = settings.language or DEFAULT_LANGUAGE
    games = [(presenter(name), _game_options(settings, name)) for name in GAMES]
    lines = [
        t(lang, "settings.title", chat=escape(chat_title)),
        t(lang, "settings.default_game", game=game_title(settings.default_variant, lang)),
        *(line for shown, options in games if (line := shown.settings_line(options, lang)) is not None),
        t(lang, "settings.timer", timer=timer),
        t(lang, "settings.language", language=LANGUAGE_NAMES.get(language, language)),
        t(lang, "settings.level", level=t(lang, f"level.{settings.computer_level}")),
        t(lang, "settings.table", table=t(lang, f"settings.table_{settings.table}")),
        "",
        t(lang, "settings.hint"),
    ]

    def button(label: str, key: str, value: object) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=Setting(key, str(value).lower()).data())

    def option_button(shown: Presenter, option: MenuOption, options: Options) -> InlineKeyboardButton:
        offered = option.after(getattr(options, option.field))
        return button(f"{option.icon} {shown.option_word(option.field, offered, lang)}", option.key,
                      option.encode(offered))  # fmt: skip

    next_game = _next(GAMES, settings.default_variant)
    other_table = _next(TABLE_CHOICES, settings.table)
    rows = [
        [button("🎴 " + game_title(next_game, lang), "game", next_game)],
        *([option_button(shown, o, options) for o in shown.menu_options] for shown, options in games
          if shown.menu_options),
        [
            button("⏱ " + (t(lang, "settings.seconds", n=n) if (n := _next(TIMER_CHOICES, settings.turn_timer))
                          else t(lang, "settings.off")), "timer", n),
            button("🌐 " + LANGUAGE_NAMES[_next(LANGUAGES, language)], "lang", _next(LANGUAGES, language)),
            button("🤖 " + t(lang, "level." + _next(LEVEL_CHOICES, settings.computer_level)), "level",
                   _next(LEVEL_CHOICES, settings.computer_level)),
        ],
        [button("🖼 " + t(lang, "settings.table", table=t(lang, f"settings.table_{other_table}")), "table",
                other_table)],
    ]  # fmt: skip
    return "\n".join(lines), InlineKeyboardMarkup(rows)


def _menu_option(key: str) -> tuple[str, MenuOption] | None:
    """The game and its option whose button carries ``key``."""
    return next(((name, o) for name in GAMES for o in presenter(name).menu_options if o.key == key), None)


def apply_setting(settings: ChatSettings, key: str, value: str) -> ChatSettings | None:
    """The settings with one menu choice applied, or None for a choice the menu never offers."""
    update: dict[str, Any] = {}
    if key == "game" and value in GAMES:
        update["default_variant"] = value
    elif key == "timer" and value.isdigit() and int(value) in TIMER_CHOICES:
        update["turn_timer"] = int(value)
    elif key == "lang" and value in LANGUAGES:
        update["language"] = value
    elif key == "level" and value in LEVEL_CHOICES:
        update["computer_level"] = value
    elif key == "table" and value in TABLE_CHOICES:
        update["table"] = value
    elif (found := _menu_option(key)) is not None and (chosen := found[1].decode(value)) is not None:
        variant, option = found
        update["options"] = settings.options | {variant: settings.options.get(variant, {}) | {option.field: chosen}}
    else:
        return None
    return settings.model_copy(update=update)


@dataclass(frozen=True)
class StatsLine:
    variant: str
    played: int
    won: int
    lost: int
    eggs: int
    molodkas: int
    kozels: int


def render_stats(lines: Sequence[StatsLine], lang: str) -> str:
    """/stats: a person's games, per game."""
    if not lines:
        return t(lang, "stats.none")
    out = [t(lang, "stats.title")]
    for line in lines:
        shown = presenter(line.variant)
        out.append(
            t(lang, shown.stats_line_key, game=game_title(line.variant, lang), played=line.played, won=line.won,
              lost=line.lost, between=line.played - line.won - line.lost)
        )  # fmt: skip
        counts = {"eggs": line.eggs, "molodkas": line.molodkas, "kozels": line.kozels}
        extra = " · ".join(t(lang, f"stats.{name}", count=counts[name]) for name in shown.stats_counts)
        if extra:  # only what exists in the game
            out.append("   " + extra[:1].upper() + extra[1:])
    return "\n".join(out)


def render_rules(names: Sequence[str], lang: str) -> list[str]:
    """/rules: each game's summary, in as few messages as Telegram's length allows, a game never split."""
    messages: list[str] = []
    for name in names:
        text = t(lang, f"rules.{name}")
        if messages and telegram_length(f"{messages[-1]}\n\n{text}") <= MAX_TEXT:
            messages[-1] = f"{messages[-1]}\n\n{text}"
        else:
            messages.append(text)
    return messages
