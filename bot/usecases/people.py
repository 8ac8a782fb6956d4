"""A Telegram user as the use cases need him, without Telegram."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Person:
    user_id: int
    name: str
    username: str | None = None
    language: str | None = None
