"""``python -m storage``: maintenance of the bot's database while the bot runs.

    python -m storage backup PATH     copy the database to PATH (a consistent snapshot, safe while the bot runs)
    python -m storage check [PATH]    verify a file: integrity, schema version, every game replays from its log,
                                      the ratings are what the stored series rate to
    python -m storage rerate [--write]
                                      rate every stored series again, in order, and list the differences from the
                                      stored ratings (none expected); --write replaces them (after a change of
                                      the rating model, with the bot stopped: it holds the write lock)

The database is ``--database``, else ``$DATABASE_PATH``, else ``data/kozel.db`` (the bot's default).
Exit status: 0 when all is well, 1 when ``check`` finds a problem or a command fails, 2 for bad usage.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from storage.db import StorageError
from storage.maintenance import backup, check
from storage.repos import Storage


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", type=Path, default=Path(os.environ.get("DATABASE_PATH") or "data/kozel.db"))
    commands = parser.add_subparsers(dest="command", required=True)
    backup_cmd = commands.add_parser("backup", help="copy the database to PATH while the bot may run")
    backup_cmd.add_argument("path", type=Path)
    check_cmd = commands.add_parser("check", help="verify a database file (the bot's database by default)")
    check_cmd.add_argument("path", type=Path, nargs="?")
    rerate_cmd = commands.add_parser("rerate", help="recompute every rating from the stored series")
    rerate_cmd.add_argument("--write", action="store_true", help="replace the stored ratings by the recomputed")
    args = parser.parse_args(argv)
    if args.command == "rerate":
        return asyncio.run(rerate(args.database, args.write))
    if args.command == "backup":
        try:
            version = backup(args.database, args.path)
        except (StorageError, OSError) as exc:
            print(f"backup failed: {exc}", file=sys.stderr)
            return 1
        print(f"backed up {args.database} to {args.path} (schema version {version})")
        return 0
    path = args.path or args.database
    if not path.exists():
        print(f"{path}: no such file", file=sys.stderr)
        return 1
    report = asyncio.run(check(path))
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


async def rerate(path: Path, write: bool) -> int:
    if not path.exists():
        print(f"{path}: no such file", file=sys.stderr)
        return 1
    store = await Storage.open(path, catch_up=False)  # only --write writes
    try:
        count = await store.ratings.rated_count()
        differences = await store.ratings.recompute(write=write)
    finally:
        await store.close()
    for line in differences:
        print(line)
    verdict = "rewrote the stored ratings" if write and differences else "stored ratings unchanged"
    print(f"{count} rated series rated again: {len(differences)} differences; {verdict}")
    return 1 if differences and not write else 0


if __name__ == "__main__":
    raise SystemExit(main())
