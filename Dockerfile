# Space Alert bot: slim Python 3.11, libopus0 (voice encoder) and espeak-ng (offline speech),
# running as an unprivileged user with the database and the audio cache on a volume.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/data/space_alert.sqlite3 \
    VOICE_CACHE_DIR=/data/audio-cache

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libopus0 espeak-ng \
 && rm -rf /var/lib/apt/lists/*

RUN useradd --create-home --uid 10001 spacealert \
 && mkdir -p /data && chown spacealert:spacealert /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY scenarios ./scenarios
COPY voice ./voice
COPY bot ./bot
COPY migrations ./migrations
RUN pip install .

USER spacealert
VOLUME ["/data"]
# the web logbook, when run (`python -m bot.web`, or WEB_PORT set for the bot): WEB_HOST=0.0.0.0
EXPOSE 8080
WORKDIR /data
CMD ["python", "-m", "bot"]
