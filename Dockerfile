# The Tute bot as one process: `docker build -t tute-bot .`, then
# `docker run --env-file .env tute-bot` (all shards, SQLite in /app/data), or through
# compose.yaml (several processes on one PostgreSQL). Arguments go to `tute-bot`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The project and its dependencies (discord.py, aiosqlite, asyncpg, python-dotenv, Pillow,
# openskill, prometheus-client). Nothing else is copied: settings come from the environment.
COPY pyproject.toml README.md ./
COPY bot/ bot/
COPY cogs/ cogs/
RUN pip install --no-cache-dir . \
    && rm -rf build *.egg-info

# A user of its own; /app/data is where a SQLite database goes (TUTE_DB_PATH=data/tute.db):
# mount a volume there to keep it (`-v tute-data:/app/data`). With TUTE_DATABASE_URL set,
# nothing is kept in the container.
RUN useradd --system --create-home --home-dir /home/tute --uid 10001 tute \
    && mkdir -p /app/data \
    && chown tute:tute /app/data
USER tute

# Ctrl-C's signal: the bot stops as on Ctrl-C, keeping each turn's time left and closing its
# database (give it time: compose.yaml's stop_grace_period).
STOPSIGNAL SIGINT

ENTRYPOINT ["tute-bot"]
