"""Test-wide set-up."""

import os

# python-telegram-bot 22 reports flood waits as timedelta when opted in (its future default); the bot
# handles both forms, and the opt-in keeps the test output free of the deprecation warning.
os.environ.setdefault("PTB_TIMEDELTA", "1")

from tests.e2e import world  # noqa: F401 - the end-to-end fixture, shared by the e2e test modules
