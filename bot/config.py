"""Configuration from the environment or a ``.env`` file (see ``.env.example``)."""

from __future__ import annotations

from pathlib import Path

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr | None = None
    database_path: Path = Path("data/kozel.db")
    telegram_base_url: str | None = None
    log_level: str = "INFO"
    lobby_ttl_seconds: float = 900.0
    turn_ping_seconds: float = 5.0
    rate_overall_per_second: float = 30.0
    rate_group_per_minute: float = 20.0
    group_messages_per_minute: int = 20
    group_period_seconds: float = 60.0
    concurrent_updates: int = 64
    poll_timeout_seconds: int = 30
    computer_workers: int = 1  # processes that think for computer players; 0: a thread of this process
    computer_budget_seconds: float = 0.5  # thinking time of the strong computer player per decision
    computer_pause_seconds: float = 1.5  # a computer player's pause before it acts, so people can follow
    timer_scale: float = 1.0  # multiplies every chat's turn timer (tests run timers in fractions of a second)
    playground_host: str = "127.0.0.1"  # without a token: where the playground's page listens
    playground_port: int = 8080
