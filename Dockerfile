# The bot in a container: slim Python, a non-root user, the SQLite file on a volume at /data.
#   docker build -t kozel-bot .
#   docker run -d --env-file .env -v kozel-data:/data kozel-bot
# or `docker compose up -d` with compose.yaml.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
# The exact versions with their hashes first, so this layer is rebuilt only when the lock changes.
COPY requirements.txt ./
RUN pip install --require-hashes -r requirements.txt
COPY setup.py pyproject.toml README.md ./
COPY engine engine
COPY storage storage
COPY bot bot
# The games' compiled search cores (each game's _compiled.c in engine/games/<game>/) are built here with the
# C compiler, which then goes again.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install --no-deps . \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* build *.egg-info \
    && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home kozel \
    && mkdir /data && chown kozel:kozel /data

USER kozel
# Everything the bot writes goes to /data: the database (and SQLite's -wal/-shm files beside it).
ENV DATABASE_PATH=/data/kozel.db \
    HEALTH_PORT=8081
VOLUME ["/data"]
WORKDIR /data
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["python", "-m", "bot.health"]
# Without BOT_TOKEN it exits with a hint (the playground is for `make run` on your own machine).
CMD ["python", "-m", "bot", "--no-playground"]
