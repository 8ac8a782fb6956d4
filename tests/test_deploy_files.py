"""The files a server runs the bot from say what the tested commands are (no Docker engine is needed here:
the commands themselves run in tests/test_e2e_ops.py), and the lock files cover pyproject.toml."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def names(requirements: str) -> set[str]:
    return {m.lower().replace("_", "-") for m in re.findall(r"^([A-Za-z0-9_.-]+)==", requirements, re.M)}


def requirement_name(line: str) -> str:
    return re.split(r"[\[<>=!~; ]", line, maxsplit=1)[0].lower().replace("_", "-")


def test_the_lock_files_pin_every_dependency_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    runtime = {requirement_name(d) for d in project["dependencies"]}
    dev = {requirement_name(d) for d in project["optional-dependencies"]["dev"]}
    for lock, wanted in (("requirements.txt", runtime), ("requirements-dev.txt", runtime | dev)):
        text = (ROOT / lock).read_text("utf-8")
        assert wanted <= names(text), f"{lock} misses {sorted(wanted - names(text))}: run make lock"
        pins = re.findall(r"^[A-Za-z0-9_.-]+==\S+(?: ;[^\\\n]*)? \\\n((?:\s+--hash=sha256:[0-9a-f]{64}(?: \\)?\n)+)", text, re.M)
        assert len(pins) == len(names(text)), f"every pin in {lock} has its hashes"
    assert "tornado" in names((ROOT / "requirements.txt").read_text("utf-8"))  # webhook mode's server


def test_the_image_runs_the_tested_commands_as_a_non_root_user_with_data_on_a_volume() -> None:
    docker = (ROOT / "Dockerfile").read_text("utf-8")
    assert re.search(r"^FROM python:3\.11-slim$", docker, re.M)
    assert "pip install --require-hashes -r requirements.txt" in docker
    assert re.search(r"^USER kozel$", docker, re.M)
    assert 'VOLUME ["/data"]' in docker and "DATABASE_PATH=/data/kozel.db" in docker
    assert 'CMD ["python", "-m", "bot", "--no-playground"]' in docker
    assert re.search(r'^HEALTHCHECK .*CMD \["python", "-m", "bot\.health"\]$', docker, re.M)
    assert "HEALTH_PORT=8081" in docker
    # the compiled core is built in the image, from its sources, not copied from a build of this machine
    assert "COPY setup.py " in docker and docker.index("install -y --no-install-recommends gcc") < docker.index(
        "pip install --no-deps ."
    )
    compose = (ROOT / "compose.yaml").read_text("utf-8")
    assert "env_file: .env" in compose and "kozel-data:/data" in compose
    assert (ROOT / "Procfile").read_text("utf-8").strip() == "worker: python -m bot --no-playground"
    ignored = (ROOT / ".dockerignore").read_text("utf-8").split()
    assert {".env", ".venv", "data", ".git", "**/*.so"} <= set(ignored)  # no secrets, local state or builds
