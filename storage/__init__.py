"""The bot's memory in SQLite: the only package that speaks SQL."""

from storage.db import (
    SCHEMA_VERSION,
    CorruptDatabaseError,
    Database,
    DuplicateActionError,
    NewerSchemaError,
    NotADatabaseError,
    StorageError,
    StorageUnavailable,
)
from storage.games import GameRepo, OpenGameExistsError, ReplayMismatchError, ResultRepo, SeatTakenError
from storage.models import ChatRow, ChatSettings, GameRow, PlayerRow, PlayerStats, ResultRow, SeatRow, TableLine
from storage.repos import ChatRepo, PlayerRepo, Storage, UpdateRepo

__all__ = [
    "SCHEMA_VERSION",
    "ChatRepo",
    "ChatRow",
    "ChatSettings",
    "CorruptDatabaseError",
    "Database",
    "DuplicateActionError",
    "GameRepo",
    "GameRow",
    "NewerSchemaError",
    "NotADatabaseError",
    "OpenGameExistsError",
    "PlayerRepo",
    "PlayerRow",
    "PlayerStats",
    "ReplayMismatchError",
    "ResultRepo",
    "ResultRow",
    "SeatRow",
    "SeatTakenError",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "TableLine",
    "UpdateRepo",
]
