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


CLOCK = BOT / "clock.py"
SERVER = BOT.parent / "playground" / "botapi.py"
TIME_READERS = {  # what reads the time or waits on it, by the names a module would call it
    ("time", "time"), ("time", "monotonic"), ("time", "perf_counter"), ("time", "sleep"),
    ("asyncio", "sleep"), ("asyncio", "wait_for"), ("asyncio", "timeout"),
}  # fmt: skip
LOOP_TIMERS = {"call_later", "call_at"}


def time_readers(path: Path) -> list[str]:
    """Where a module reads the time or waits on it other than through the injected clock."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute):
            base = node.value.id if isinstance(node.value, ast.Name) else None
            if (base, node.attr) in TIME_READERS or node.attr in LOOP_TIMERS or (node.attr == "time" and base == "loop"):
                found.append(f"{path.name}:{node.lineno} {base}.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in ("time", "asyncio"):
            names = {a.name for a in node.names}
            if any((node.module, n) in TIME_READERS for n in names):
                found.append(f"{path.name}:{node.lineno} from {node.module} import {sorted(names)}")
    return found


def test_one_clock_reads_the_time_for_the_bot_and_the_embedded_server() -> None:
    """Nothing in ``bot`` or the embedded Bot API server reads the time or sleeps but ``bot/clock.py``: on a
    loop on virtual time, the bot's waits, the outbox's budgets and the server's flood control keep one clock."""
    readers = [r for p in [*modules(), SERVER] if p != CLOCK for r in time_readers(p)]
    assert readers == []
    assert time_readers(CLOCK)  # the check sees what it looks for


def imports_of(path: Path) -> set[str]:
    """The ``bot`` modules a module imports, those behind ``TYPE_CHECKING`` too."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "bot":
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "bot"}
    return found


def test_no_module_of_the_bot_imports_itself_through_others() -> None:
    names = {".".join(p.relative_to(BOT.parent).with_suffix("").parts).removesuffix(".__init__"): p for p in modules()}
    graph = {name: {m for m in imports_of(path) if m in names and m != name} for name, path in names.items()}
    cycles = []

    def visit(name: str, path: list[str]) -> None:
        for other in graph[name]:
            if other in path:
                cycles.append([*path[path.index(other) :], other])
            elif len(path) < len(graph):
                visit(other, [*path, other])

    for start in sorted(graph):
        visit(start, [start])
    assert cycles == []
    assert imports_of(CLOCK) == set()  # the clock and the task set need nothing of the bot
