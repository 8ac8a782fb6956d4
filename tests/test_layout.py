"""The shape of ``bot/`` that the README promises: small modules, game knowledge in the presenters only,
handlers that reach storage and the publisher only through the use cases."""

from __future__ import annotations

import ast
import re
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


WALL_CLOCK = {("time", "time"), ("time", "monotonic"), ("time", "perf_counter"), ("datetime", "now")}


def wall_clock_readers(tree: ast.Module) -> dict[str, int]:
    """The functions of a test module that read the wall clock (by name), and where."""
    found: dict[str, int] = {}
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                name = node.value.id if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) else None
                if isinstance(node, ast.Attribute) and (name, node.attr) in WALL_CLOCK:
                    found.setdefault(function.name, node.lineno)
    return found


def on_real_time(tree: ast.Module) -> set[str]:
    """The functions marked ``real_time`` (or all, when the module is), and the helpers only they call."""
    marked = any(  # pytestmark = pytest.mark.real_time
        isinstance(n, ast.Assign) and "pytestmark" in ast.unparse(n.targets[0]) and "real_time" in ast.unparse(n.value)
        for n in tree.body
    )
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    real = {f.name for f in functions if marked or any("real_time" in ast.unparse(d) for d in f.decorator_list)}
    callers: dict[str, set[str]] = {f.name: set() for f in functions}
    for f in functions:
        for node in ast.walk(f):
            if isinstance(node, ast.Name) and node.id in callers and node.id != f.name:
                callers[node.id].add(f.name)
    changed = True
    while changed:  # a helper used only by real-time tests (or by such helpers) runs on real time too
        changed = False
        for name, by in callers.items():
            if name not in real and by and by <= real:
                real.add(name)
                changed = True
    return real


def test_no_test_on_virtual_time_reads_the_wall_clock() -> None:
    """A test on virtual time measures with the loop's clock: a wall-clock tolerance would make its result
    depend on the machine's load."""
    readers, allowed = [], 0
    for path in sorted((BOT.parent / "tests").glob("*.py")):
        tree = ast.parse(path.read_text())
        real = on_real_time(tree)
        found = wall_clock_readers(tree)
        readers += [f"{path.name}:{line} {name}" for name, line in found.items() if name not in real]
        allowed += len(found.keys() & real)
    assert readers == []
    assert allowed  # the check sees what it looks for: the real-time tests read the wall clock


def test_storage_stamps_rows_with_the_bots_clock_never_sqlites() -> None:
    """No statement asks SQLite for the time ('now', CURRENT_TIMESTAMP): rows are stamped by ``storage.db.NOW``,
    which reads the clock the storage was opened with."""
    asking = [
        f"{p.name}:{i}"
        for p in sorted((BOT.parent / "storage").glob("*.py"))
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"'now'|current_timestamp|current_time|current_date", line, re.IGNORECASE)
    ]
    assert asking == []
