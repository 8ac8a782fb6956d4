"""``python -m bot``: run the bot with long polling until SIGINT or SIGTERM (no token: the playground)."""

from __future__ import annotations

import logging
import os
import sys

from pydantic import ValidationError

from bot.app import build_application
from bot.config import Settings
from playground.runner import run as run_playground


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"bad configuration: {exc}", file=sys.stderr)
        return 2
    if settings.bot_token is None or not settings.bot_token.get_secret_value().strip():
        return run_playground(settings)  # no token: the bot on the embedded Bot API server, with a web page
    os.environ.setdefault("PTB_TIMEDELTA", "1")  # flood waits as timedelta, the library's future default
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    application = build_application(settings)
    application.run_polling(
        allowed_updates=["message", "callback_query", "my_chat_member", "chat_member"], drop_pending_updates=False
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
