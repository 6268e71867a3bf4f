"""Voice settings as a plain value object; the bot reads the environment and passes one in."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from voice.tts import BACKEND_SETTINGS


def _truthy(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class VoiceConfig:
    """Everything `voice` can be told.

    * `tts_backend`: ``auto`` | ``gtts`` | ``espeak`` (TTS_BACKEND), see `voice.tts.make_engines`.
    * `time_scale`: > 1 compresses the *schedule* (TIME_SCALE); the audio itself is never sped up,
      so a compressed flight queues lines that no longer fit, it does not chop them.
    * `cache_dir` / `cache_max_bytes`: the on-disk clip cache and its cap.
    * `render_concurrency`: how many lines are synthesized at once during pre-render.
    * `gtts_timeout_s`, `gtts_retry_after_s`, `gtts_tld`: the online engine's hard deadline (its
      worker thread gives up), the breaker's first cool-down, and the Google host (accent).
    * `online_budget_s` / `online_min_budget_s`: how long a line waits for the online engine before
      espeak-ng's rendering (made meanwhile) is used; a line due sooner waits less, but at least
      the minimum.
    * `red_alert_loop` / `red_alert_gain`: the optional low klaxon between lines (off by default).
    """

    tts_backend: str = "auto"
    time_scale: float = 1.0
    cache_dir: Path = Path(".cache/voice")
    cache_max_bytes: int = 256 * 1024 * 1024
    render_concurrency: int = 4
    gtts_timeout_s: float = 10.0
    online_budget_s: float = 1.5
    online_min_budget_s: float = 0.25
    gtts_retry_after_s: float = 300.0
    gtts_tld: str = "com"
    espeak_speed_wpm: int = 155
    red_alert_loop: bool = False
    red_alert_gain: float = 0.08

    def __post_init__(self) -> None:
        if self.tts_backend not in BACKEND_SETTINGS:
            raise ValueError(f"TTS_BACKEND must be one of {', '.join(BACKEND_SETTINGS)}, not {self.tts_backend!r}")
        if not self.time_scale > 0:
            raise ValueError(f"TIME_SCALE must be positive, not {self.time_scale!r}")
        if self.render_concurrency < 1:
            raise ValueError("render_concurrency must be at least 1")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> VoiceConfig:
        """Convenience for scripts: TTS_BACKEND, TIME_SCALE, VOICE_CACHE_DIR, VOICE_CACHE_MAX_MB,
        RED_ALERT_LOOP.  Unset variables keep the defaults."""
        env = os.environ if env is None else env
        kwargs: dict[str, object] = {}
        if env.get("TTS_BACKEND"):
            kwargs["tts_backend"] = env["TTS_BACKEND"].strip().lower()
        if env.get("TIME_SCALE"):
            kwargs["time_scale"] = float(env["TIME_SCALE"])
        if env.get("VOICE_CACHE_DIR"):
            kwargs["cache_dir"] = Path(env["VOICE_CACHE_DIR"])
        if env.get("VOICE_CACHE_MAX_MB"):
            kwargs["cache_max_bytes"] = int(float(env["VOICE_CACHE_MAX_MB"]) * 1024 * 1024)
        if env.get("RED_ALERT_LOOP"):
            kwargs["red_alert_loop"] = _truthy(env["RED_ALERT_LOOP"])
        return cls(**kwargs)  # type: ignore[arg-type]
