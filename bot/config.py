"""Configuration from the environment or a ``.env`` file (see ``.env.example``)."""

from __future__ import annotations

import difflib
import re
import secrets
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
APP_NAME = re.compile(r"[A-Za-z0-9_]{3,30}")


class Settings(BaseSettings):
    # A key of .env that no setting has is an error: a misspelled setting would otherwise do nothing at all.
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="forbid")

    bot_token: SecretStr | None = None
    database_path: Path = Path("data/kozel.db")
    telegram_base_url: str | None = None
    log_level: str = "INFO"
    lobby_ttl_seconds: float = 900.0
    game_idle_seconds: float = 86_400.0  # a running game with no move for this long ends by itself (0: never)
    game_deserted_seconds: float = 600.0  # ... and one every person has left, once nobody came back for this long
    turn_ping_seconds: float = 5.0  # a player whose turn came is notified after this long ...
    turn_ping_watching_seconds: float = 20.0  # ... or this long if he pressed his hand in the last minute
    rate_overall_per_second: float = 30.0
    rate_cruise_share: float = Field(default=0.8, gt=0, le=1)  # of the overall budget, what tables and idle hands fill
    rate_private_per_second: float = 1.0  # messages and edits into one private chat (the publisher's outbox)
    group_messages_per_minute: int = 20
    group_period_seconds: float = 60.0
    concurrent_updates: int = 64
    poll_timeout_seconds: int = 30
    computer_workers: int = 1  # processes that think for computer players; 0: a thread of this process
    computer_budget_seconds: float = 0.5  # thinking time of the strong computer player per decision
    computer_pause_seconds: float = 1.5  # a computer player's pause before it acts, so people can follow
    shutdown_grace_seconds: float = 8.0  # on SIGTERM: how long what is owed to the chats may still take to go out
    playground_host: str = "127.0.0.1"  # without a token: where the playground's page listens
    playground_port: int = 8080
    # Webhook mode (instead of long polling) when WEBHOOK_URL is set: Telegram posts updates to that HTTPS
    # address, which a proxy forwards to WEBHOOK_LISTEN:WEBHOOK_PORT; every request must carry the secret.
    webhook_url: str | None = None
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: SecretStr | None = None  # 1–256 of A–Z a–z 0–9 _ -; empty: a new random one each start
    # The health endpoint, GET http://HEALTH_HOST:HEALTH_PORT/health (0: off); `python -m bot.health` asks it.
    health_host: str = "127.0.0.1"
    health_port: int = 0
    # How long without a successful poll of Telegram the health endpoint still calls long polling healthy.
    health_poll_slack_seconds: float = 90.0
    # Prometheus metrics at GET /metrics of the health endpoint (it needs HEALTH_PORT; mind HEALTH_HOST).
    metrics: bool = False
    # The log: "text", lines for people, or "json", one JSON object a line for a machine.
    log_format: Literal["text", "json"] = "text"
    # The Mini App (bot.miniapp) when MINIAPP_URL is set: its public HTTPS address, which a proxy forwards to
    # MINIAPP_LISTEN:MINIAPP_PORT (its path is the path the bot serves it at); MINIAPP_NAME, the short name the
    # app was given at BotFather, lets the group's table link to it (t.me/<bot>/<name>).
    miniapp_url: str | None = None
    miniapp_listen: str = "0.0.0.0"
    miniapp_port: int = 8444
    miniapp_name: str | None = None
    miniapp_max_age_seconds: float = Field(default=86_400.0, gt=0)  # how old a page's signed initData may be

    @field_validator("miniapp_url")
    @classmethod
    def _miniapp_url_is_an_address(cls, value: str | None) -> str | None:
        if not value:
            return None
        parts = urlsplit(value)
        if parts.scheme != "https" or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("MINIAPP_URL is the page's HTTPS address (Telegram opens no other), e.g. https://example.org/kozel/")
        return value if parts.path.endswith("/") else value + "/"

    @field_validator("miniapp_name")
    @classmethod
    def _miniapp_name_is_a_short_name(cls, value: str | None) -> str | None:
        if value and not APP_NAME.fullmatch(value):
            raise ValueError("MINIAPP_NAME is the app's short name at BotFather: 3-30 of A-Z a-z 0-9 _")
        return value or None

    @field_validator("webhook_secret")
    @classmethod
    def _secret_is_telegrams_kind(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and value.get_secret_value() and not SECRET.fullmatch(value.get_secret_value()):
            raise ValueError("WEBHOOK_SECRET takes 1 to 256 of the characters A-Z a-z 0-9 _ -")
        return value

    @model_validator(mode="after")
    def _metrics_have_an_endpoint(self) -> Settings:
        if self.metrics and not self.health_port:
            raise ValueError("METRICS is served by the health endpoint: set HEALTH_PORT too")
        return self

    def webhook_secret_or_new(self) -> str:
        """The configured secret, or a random one for this run (Telegram is told it by setWebhook)."""
        given = self.webhook_secret.get_secret_value() if self.webhook_secret is not None else ""
        return given or secrets.token_urlsafe(32)


def explain(error: ValidationError) -> str:
    """What is wrong with the configuration, a line a problem: an unknown key is named with the nearest real
    setting, as the person who wrote it would look for it."""
    names = [name.upper() for name in Settings.model_fields]
    lines = []
    for problem in error.errors():
        key = ".".join(str(part) for part in problem["loc"]).upper()
        if problem["type"] == "extra_forbidden":
            nearest = difflib.get_close_matches(key, names, n=1, cutoff=0.0)
            hint = f"; did you mean {nearest[0]}?" if nearest else ""
            lines.append(f"{key} is not a setting{hint} (see .env.example)")
        else:
            lines.append(f"{key}: {problem['msg']}")
    return "\n".join(lines)
