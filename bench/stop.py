"""How long a stop takes, from SIGTERM to the process's exit, while answers wait for a group's budget.

    python -m bench.stop [--owed 6] [--grace 8]

``python -m bot --no-playground`` runs in a process of its own against the embedded Bot API server over HTTP,
in long polling and then in webhook mode, with a group budget of 3 messages a minute; ``--owed`` commands are
sent into the group at once, so most of their answers still wait when SIGTERM comes.  The whole stop must end
within ``SHUTDOWN_GRACE_SECONDS`` (``--grace``), which is what a supervisor such as ``docker stop`` allows.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import tempfile
from pathlib import Path

from engine import clock
from playground.botapi import BotApiServer, Limits
from tests.e2e import GROUP, free_port
from tests.test_e2e_ops import bot_process, wait_for


async def one_stop(mode: str, owed: int, grace: float) -> tuple[float, int]:
    """Seconds from SIGTERM to exit, and the answers that reached the group."""
    server = BotApiServer(limits=Limits())
    await server.start()
    server.add_group(GROUP, "Friends", admins={1})
    server.add_user(1, "Ann")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        env = {"DATABASE_PATH": str(work / "kozel.db"), "GROUP_MESSAGES_PER_MINUTE": "3",
               "SHUTDOWN_GRACE_SECONDS": str(grace)}  # fmt: skip
        if mode == "webhook":
            port = free_port()
            env |= {"WEBHOOK_URL": f"http://127.0.0.1:{port}/kozel", "WEBHOOK_LISTEN": "127.0.0.1",
                    "WEBHOOK_PORT": str(port)}  # fmt: skip
        try:
            async with bot_process(server, work, **env) as bot:
                started = ("getUpdates", "setWebhook")
                await wait_for(lambda: any(c.method in started for c in server.calls), "the bot to start", 60)
                for _ in range(owed):
                    await server.send_text(1, GROUP, "/help")
                await wait_for(lambda: bool(server.bot_messages(GROUP)), "a first answer", 60)
                began = clock.monotonic()
                bot.send_signal(signal.SIGTERM)
                await asyncio.to_thread(bot.wait, 120)
                return clock.monotonic() - began, len(server.bot_messages(GROUP))
        finally:
            await server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--owed", type=int, default=6)
    parser.add_argument("--grace", type=float, default=8.0)
    args = parser.parse_args()
    for mode in ("polling", "webhook"):
        took, answered = asyncio.run(one_stop(mode, args.owed, args.grace))
        print(f"{mode:8} stop {took:5.2f} s of {args.grace:.1f} s allowed; {answered} of {args.owed} answers sent")


if __name__ == "__main__":
    main()
