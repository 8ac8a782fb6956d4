"""The shape of ``bot/`` that the README promises: small modules, game knowledge in the presenters only,
handlers that reach storage and the publisher only through the use cases."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parent.parent / "bot"
MAX_LINES = 400


def modules() -> list[Path]:
    return sorted(BOT.rglob("*.py"))


def test_no_module_of_the_bot_is_long() -> None:
    long = {str(p.relative_to(BOT)): n for p in modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_only_the_presenters_ask_which_game_it_is() -> None:
    asking = [
        f"{p.relative_to(BOT)}:{i}"
        for p in modules()
        if "present" not in p.parts
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if "variant ==" in line or "variant !=" in line
    ]
    assert asking == []


def test_handlers_import_neither_storage_nor_the_publisher() -> None:
    imported = set()
    for path in (BOT / "handlers").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
            elif isinstance(node, ast.Import):
                imported |= {a.name for a in node.names}
    assert {m for m in imported if m.split(".")[0] == "storage" or "publisher" in m} == set()
    assert any(m.startswith("bot.wiring") for m in imported)  # the test looks at the right files
