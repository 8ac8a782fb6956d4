"""What a use case did, for ``notify`` to tell the chats once the game's lock is released.

Events name what happened, not which message shows it; ``Notifier`` decides that.  They carry the game's
``Live`` entry, so a game that ended meanwhile is still shown as it was.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from bot.usecases.live import Live
from engine import Action


@dataclass(frozen=True)
class Applied:
    """An action was committed; these seats' hands (cards, choices or turn) changed."""

    live: Live
    action: Action
    seats: tuple[int, ...]


@dataclass(frozen=True)
class TrickTaken:
    """The action completed a trick (shown with the table of ``Applied``)."""

    live: Live
    winner: int | None


@dataclass(frozen=True)
class TurnCame:
    """It became this seat's turn (a person: he is notified unless he moves at once)."""

    live: Live
    seat: int
    version: int


@dataclass(frozen=True)
class Pressed:
    """The seat's player pressed a button of his hand: he is looking at it (no turn notification needed)."""

    live: Live
    seat: int


@dataclass(frozen=True)
class DealEnded:
    """A deal ended (``deals_before`` deals had been played before the action); a new one is dealt.
    ``last_trick``: the plays of the deal's last trick, its completing card included (shown until the
    table of the deal is closed); ``winner``: who took it."""

    live: Live
    deals_before: int
    last_trick: tuple[Action, ...] = ()
    winner: int | None = None


@dataclass(frozen=True)
class DealOpened:
    """A game started, or its messages must be brought up to date (``resume``: after a restart or a move
    of the group; only what is missing is posted)."""

    live: Live
    resume: bool = False


@dataclass(frozen=True)
class HandResent:
    """The seat's hand comes again as a new message (the person is back in the private chat)."""

    live: Live
    seat: int


@dataclass(frozen=True)
class SeriesEnded:
    """The last deal ended and the series with it (``last_trick``, ``winner``: as in ``DealEnded``)."""

    live: Live
    deals_before: int
    last_trick: tuple[Action, ...] = ()
    winner: int | None = None


@dataclass(frozen=True)
class HandChanged:
    """One seat's hand message must show the state again (chosen cards, a refused press)."""

    live: Live
    seat: int


@dataclass(frozen=True)
class SeatChanged:
    """A computer took a person's seat, or he took it back (``back``); the group is told ``key`` about
    ``name`` (his name as it was shown before the change)."""

    live: Live
    seat: int
    key: str
    name: str
    back: bool = False


@dataclass(frozen=True)
class TurnMissed:
    """A person's turn ran out and the computer moved for him (``count`` times in a row)."""

    live: Live
    name: str
    count: int


@dataclass(frozen=True)
class GameEnded:
    """A lobby or running game was cancelled; ``notice`` None: the group can no longer be written to."""

    live: Live | None
    chat_id: int
    lobby_message_id: int | None
    was_lobby: bool
    notice: str | None


@dataclass(frozen=True)
class TableMoved:
    """The chat chose another way to show its table (a picture or a text): the running deal's table comes
    again, the new way, at the bottom of the group."""

    live: Live


@dataclass(frozen=True)
class Say:
    """A message to send; ``lobby_of``: it is that game's lobby message (its id is kept); ``loud``: it
    notifies (a sound), as a message the person asked for should."""

    chat_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None
    lobby_of: int | None = None
    loud: bool = False


@dataclass(frozen=True)
class Edit:
    """A message to show anew."""

    chat_id: int
    message_id: int
    text: str
    markup: InlineKeyboardMarkup | None = None


Event = (
    Applied
    | TrickTaken
    | TurnCame
    | DealEnded
    | DealOpened
    | HandResent
    | Pressed
    | SeriesEnded
    | HandChanged
    | SeatChanged
    | TurnMissed
    | GameEnded
    | TableMoved
    | Say
    | Edit
)


class Toast(str):
    """A press's answer that only confirms what it did ("A computer player took a seat"): shown for a moment,
    not as an alert a person must close, as a refusal is."""

    __slots__ = ()
