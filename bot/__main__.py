"""``python -m bot``: run the bot until SIGINT or SIGTERM — long polling, or a webhook when WEBHOOK_URL is set.

Without BOT_TOKEN it starts the playground (the bot on the embedded Bot API server, with a web page), unless
``--no-playground`` asks it to exit with a hint instead (what a server or a container wants).
"""

from __future__ import annotations

import argparse
import os
import sys

from pydantic import ValidationError

from bot.app import ALLOWED_UPDATES, build_application, settle_heap, stop_on_signals, webhook_options
from bot.config import Settings, explain
from bot.logs import configure
from engine.compiled import CoreMissingError, check_built
from playground.runner import run as run_playground


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--no-playground",
        action="store_true",
        help="without BOT_TOKEN, exit with a hint instead of starting the playground (for servers and containers)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"bad configuration:\n{explain(exc)}", file=sys.stderr)
        return 2
    try:
        check_built()  # the computer players' search needs it: no weaker player stands in for a missing build
    except CoreMissingError as exc:
        print(f"cannot start: {exc}", file=sys.stderr)
        return 2
    if settings.bot_token is None or not settings.bot_token.get_secret_value().strip():
        if args.no_playground:
            print(
                "BOT_TOKEN is not set: create a bot with @BotFather in Telegram, then put its token in .env "
                "(see .env.example) or in the environment.",
                file=sys.stderr,
            )
            return 2
        return run_playground(settings)  # no token: the bot on the embedded Bot API server, with a web page
    os.environ.setdefault("PTB_TIMEDELTA", "1")  # flood waits as timedelta, the library's future default
    configure(settings.log_level, settings.log_format)
    application = build_application(settings)
    settle_heap()
    # SIGTERM and SIGINT stop either runner cleanly (post_stop sends what is owed, post_shutdown closes); a 5xx or
    # a network error on the start's own calls (getMe, setWebhook) is tried again, not the end of the process.
    stop_on_signals(application)
    if settings.webhook_url:
        options = webhook_options(settings, settings.webhook_secret_or_new())
        application.run_webhook(**options, bootstrap_retries=-1, stop_signals=None)
    else:
        application.run_polling(
            allowed_updates=ALLOWED_UPDATES, drop_pending_updates=False, bootstrap_retries=-1, stop_signals=None
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
