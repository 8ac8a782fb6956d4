"""The compiled cores' tests once more, with every game's module built under AddressSanitizer and UBSan.

    python -m bench.sanitize      # make sanitize

A copy of the project is built with ``-fsanitize=address,undefined`` in a temporary folder, and the tests
that drive the compiled cores (each game's ``tests/test_compiled.py``, ``tests/test_compiled_edges.py`` and
the expert's) run there with the sanitizers' runtimes preloaded into Python: a read or write out of an
array's bounds, a use after free or an undefined operation stops the run with its report.  Exits 0 when
they pass, 1 when they fail, and 0 with a line saying so when the compiler has no sanitizers (CI runs it
where it has them).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPIED = ("engine", "storage", "bot", "tests", "bench", "pyproject.toml", "setup.py")
FLAGS = "-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g -O1"
TESTS = ("tests/test_compiled_edges.py", "tests/test_expert.py")  # and each game's tests/test_compiled.py


def compiler() -> str:
    return (sysconfig.get_config_var("CC") or "cc").split()[0]


def runtimes(folder: Path) -> list[str] | None:
    """The sanitizers' runtime libraries, or None when the compiler cannot build with them."""
    probe = folder / "probe.c"
    probe.write_text("int probe(int x) { return x + 1; }\n")
    built = subprocess.run(
        [compiler(), "-shared", "-fPIC", *FLAGS.split(), str(probe), "-o", str(folder / "probe.so")],
        capture_output=True,
        check=False,
    )
    if built.returncode != 0:
        return None
    found = []
    for name in ("libasan.so", "libubsan.so"):
        path = subprocess.run([compiler(), f"-print-file-name={name}"], capture_output=True, text=True, check=False)
        if not Path(path.stdout.strip()).is_file():
            return None
        found.append(path.stdout.strip())
    return found


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="kozel-sanitize-") as tmp:
        folder = Path(tmp)
        preload = runtimes(folder)
        if preload is None:
            print("bench.sanitize: skipped: the C compiler here has no AddressSanitizer and UBSan")
            return 0
        copy = folder / "kozel"
        copy.mkdir()
        for name in COPIED:
            source = ROOT / name
            if source.is_dir():
                ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
                shutil.copytree(source, copy / name, ignore=ignore)
            else:
                shutil.copy2(source, copy / name)
        env = dict(os.environ, CFLAGS=FLAGS, LDFLAGS="-fsanitize=address,undefined", PYTHONDONTWRITEBYTECODE="1")
        built = subprocess.run(
            [sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=copy, env=env, capture_output=True,
            text=True, check=False,
        )  # fmt: skip
        if built.returncode != 0:
            print(built.stdout + built.stderr)
            return 1
        env = dict(
            os.environ,
            PYTHONPATH=str(copy),
            PYTHONDONTWRITEBYTECODE="1",
            LD_PRELOAD=":".join(preload),
            ASAN_OPTIONS="detect_leaks=0:abort_on_error=1",  # Python's own allocations would read as leaks
            UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1",
        )
        games = sorted(str(p.relative_to(copy)) for p in copy.glob("engine/games/*/tests/test_compiled.py"))
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *games, *TESTS]
        ran = subprocess.run(command, cwd=copy, env=env, check=False)
        print(f"bench.sanitize: the compiled cores' tests under AddressSanitizer and UBSan: exit {ran.returncode}")
        return 0 if ran.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
