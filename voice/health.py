"""The online engine's health, kept on disk next to the clip cache so it survives restarts.

Without it every restart rediscovers a Google block the slow way: the first line waits for gTTS
to fail before espeak-ng speaks.  With it a restarted bot skips gTTS until the stored cool-down
ends, exactly as the previous process would have.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path

from voice.tts import CircuitBreaker

log = logging.getLogger(__name__)

HEALTH_FILE = "engine-health.json"


class StoredHealth:
    """Loads a breaker's state from `root/engine-health.json` and writes it back on every change."""

    def __init__(self, root: str | os.PathLike[str], breaker: CircuitBreaker, *, engine: str = "gtts") -> None:
        self.path = Path(root) / HEALTH_FILE
        self.breaker = breaker
        self.engine = engine
        self._load()
        breaker.on_change = self.save

    def _load(self) -> None:
        try:
            data = json.loads(self.path.read_text("utf-8"))
            state = data.get(self.engine)
            if isinstance(state, dict):
                self.breaker.restore(state)
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError) as exc:
            log.info("ignoring unreadable engine health file %s: %s", self.path, exc)

    def save(self) -> None:
        """Atomic write (temporary file + rename): a crash never leaves half a file."""
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({self.engine: self.breaker.snapshot()}), "utf-8")
            os.replace(tmp, self.path)
