"""Rows as pydantic models, each built from an ``sqlite3.Row`` by ``from_row`` with explicit columns."""

from __future__ import annotations

import json
import sqlite3
from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine import DealResult
from engine.registry import default_variant_name
from storage.rating import Skill

GameStatus = Literal["lobby", "active", "finished", "cancelled"]


class Row(BaseModel):
    model_config = ConfigDict(frozen=True)

    JSON_FIELDS: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Self:
        data: dict[str, Any] = {key: row[key] for key in row.keys()}  # noqa: SIM118 - sqlite3.Row API
        for name in cls.JSON_FIELDS:
            if data.get(name) is not None:
                data[name] = json.loads(data[name])
        return cls.model_validate(data)


class ChatSettings(BaseModel):
    """Per-chat settings, stored as JSON in ``chats.settings``."""

    model_config = ConfigDict(extra="ignore")

    language: str | None = None
    default_variant: str = Field(default_factory=default_variant_name)
    options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    turn_timer: int = 60
    computer_level: str = "strong"
    table: Literal["picture", "text"] = "picture"  # how the group's table is shown


class ChatRow(Row):
    chat_id: int
    title: str
    kind: str
    settings: ChatSettings
    JSON_FIELDS: ClassVar[tuple[str, ...]] = ("settings",)


CHAT_COLUMNS = "chat_id, title, kind, settings"


class PlayerRow(Row):
    user_id: int
    name: str
    username: str | None = None
    language: str | None = None
    chosen_language: str | None = None
    can_message: bool = False

    @property
    def effective_language(self) -> str | None:
        return self.chosen_language or self.language


PLAYER_COLUMNS = "user_id, name, username, language, chosen_language, can_message"


class GameRow(Row):
    game_id: int
    chat_id: int
    variant: str
    options: dict[str, Any]
    seed: int
    status: GameStatus
    creator_id: int | None
    action_count: int
    deal_no: int
    totals: list[int]
    outcome: dict[str, Any] | None
    lobby_message_id: int | None
    table_message_id: int | None
    announced_deals: int = 0
    table_deal_no: int | None = None
    table_picture: bool = False  # the table message is a photo (its caption is the text)
    updated_at: str = ""
    cancel_votes: list[int] = Field(default_factory=list)
    vote_message_ids: list[int] = Field(default_factory=list)  # its votes to cancel, posted in the group
    JSON_FIELDS: ClassVar[tuple[str, ...]] = ("options", "totals", "outcome", "cancel_votes", "vote_message_ids")


GAME_COLUMNS = (
    "game_id, chat_id, variant, options, seed, status, creator_id, action_count, deal_no, totals, outcome, "
    "lobby_message_id, table_message_id, announced_deals, table_deal_no, table_picture, updated_at, cancel_votes, "
    "vote_message_ids"
)


class SeatRow(Row):
    game_id: int
    seat: int
    user_id: int | None
    computer: str | None
    hand_message_id: int | None
    hand_deal_no: int | None
    stand_in: str | None = None  # the computer level playing for an absent person
    timeouts: int = 0  # the person's turns in a row that ran out of time

    @property
    def player_level(self) -> str | None:
        """The computer level that plays this seat now (a computer's seat, or an absent person's)."""
        return self.computer or self.stand_in


SEAT_COLUMNS = "game_id, seat, user_id, computer, hand_message_id, hand_deal_no, stand_in, timeouts"


class DealRow(Row):
    game_id: int
    deal_no: int
    result: dict[str, Any]
    JSON_FIELDS: ClassVar[tuple[str, ...]] = ("result",)


DEAL_COLUMNS = "game_id, deal_no, result"


class RatedPlayer(BaseModel):
    """A rating with its holder: a person (``user_id`` and ``name``) or a computer level (``level``)."""

    user_id: int | None
    name: str
    level: str | None = None
    skill: Skill
    best: int | None = None


class RatingChange(BaseModel):
    """What a rated series did to one seat's player: his rating before it (None: his first) and after."""

    seat: int
    user_id: int | None
    level: str | None
    before: Skill | None
    after: Skill


class RatingPoint(BaseModel):
    """One point of a person's rating over time: after his ``series``-th rated series, which ended at ``at``."""

    series: int
    rating: int
    provisional: bool
    at: str


class PersonRating(BaseModel):
    """A person's rating in one game, with its best, his rated series and deals won, and his place in each
    chat where he played (chat title, place, players ranked there)."""

    variant: str
    skill: Skill
    best: int | None
    series_won: int
    deals_won: int
    places: list[tuple[str, int, int]]


class ResultRow(Row):
    game_id: int
    seat: int
    chat_id: int
    user_id: int | None
    variant: str
    won: bool
    lost: bool
    score: int
    table_points: int
    with_eggs: bool
    cancelled: bool


RESULT_COLUMNS = "game_id, seat, chat_id, user_id, variant, won, lost, score, table_points, with_eggs, cancelled"


class TableLine(BaseModel):
    """One player's line of a chat's all-time table."""

    user_id: int
    name: str
    played: int
    won: int
    lost: int
    table_points: int


class PlayerStats(BaseModel):
    """One person's finished series of one game: played, won, lost, deals with eggs, molodkas he played and
    deals in which he took the kozel."""

    variant: str
    played: int
    won: int
    lost: int
    eggs: int
    molodkas: int
    kozels: int


_DEAL_RESULT = TypeAdapter(DealResult)


def deal_result(data: dict[str, Any]) -> DealResult:
    """A deal's result as stored (``DealRow.result``)."""
    return _DEAL_RESULT.validate_python(data)
