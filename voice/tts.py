"""Text to speech: gTTS (online) and espeak-ng (offline) behind one interface, plus a circuit breaker.

gTTS talks to an undocumented Google Translate endpoint with blocking `requests` calls and no
default timeout, and it gets HTTP 429 blocks.  So it runs on its own small thread pool (a hung call
can never starve the event loop's default executor), with both a `requests` timeout and an
`asyncio.wait_for` deadline.  Any failure trips a breaker: for the cool-down period every line goes
straight to espeak-ng, then one probe request decides whether gTTS is back.

espeak-ng is the Debian package, run as a subprocess that writes WAV to stdout; it is fast
(~10-20 ms per line) and always there, so it is the floor the intercom never falls below.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, Protocol

BackendSetting = Literal["auto", "gtts", "espeak"]
BACKEND_SETTINGS: tuple[BackendSetting, ...] = ("auto", "gtts", "espeak")

#: Languages the intercom speaks; Slovak only when asked for.
LANGUAGES = ("en", "ru", "cs", "sk")


class TTSError(Exception):
    """Synthesis failed; `backend` names the engine."""

    def __init__(self, message: str, *, backend: str = "") -> None:
        super().__init__(message)
        self.backend = backend


class TTSTimeout(TTSError):
    """The engine did not answer in time."""


class TTSRateLimited(TTSError):
    """HTTP 429 (or Google's 'sorry' page): back off for longer than after a plain failure."""


class TTSUnavailable(TTSError):
    """The engine is not installed, or does not speak the language."""


class TTSBackend(Protocol):
    """One speech engine.  `synthesize` returns encoded audio (WAV, MP3, ...) that miniaudio decodes."""

    name: str

    def supports(self, lang: str) -> bool: ...

    def voice(self, lang: str) -> str:
        """Identifies the voice for the cache key (engine version, voice name, accent)."""
        ...

    async def synthesize(self, text: str, lang: str) -> bytes: ...


# -- espeak-ng ----------------------------------------------------------------------------------

ESPEAK_VOICES: Mapping[str, str] = {"en": "en-gb", "ru": "ru", "cs": "cs", "sk": "sk"}


class EspeakBackend:
    """espeak-ng through a subprocess (text on stdin, WAV on stdout)."""

    name = "espeak"

    def __init__(
        self,
        *,
        executable: str = "espeak-ng",
        voices: Mapping[str, str] = ESPEAK_VOICES,
        speed_wpm: int = 155,
        pitch: int = 40,
        timeout_s: float = 15.0,
    ) -> None:
        self.executable = executable
        self.voices = dict(voices)
        self.speed_wpm = speed_wpm
        self.pitch = pitch
        self.timeout_s = timeout_s
        self._version: str | None = None

    def available(self) -> bool:
        return shutil.which(self.executable) is not None

    def version(self) -> str:
        """`espeak-ng --version` first line; part of the cache key so upgrades re-render."""
        if self._version is None:
            try:
                out = subprocess.run(
                    [self.executable, "--version"], capture_output=True, text=True, timeout=5, check=False
                ).stdout
                self._version = out.split("Data at")[0].strip() or "unknown"
            except (OSError, subprocess.SubprocessError):
                self._version = "unavailable"
        return self._version

    def supports(self, lang: str) -> bool:
        return lang in self.voices

    def voice(self, lang: str) -> str:
        return f"{self.voices.get(lang, lang)};s{self.speed_wpm};p{self.pitch};{self.version()}"

    async def synthesize(self, text: str, lang: str) -> bytes:
        if not self.supports(lang):
            raise TTSUnavailable(f"espeak-ng has no voice configured for {lang!r}", backend=self.name)
        args = [
            self.executable, "-v", self.voices[lang], "-s", str(self.speed_wpm), "-p", str(self.pitch),
            "--stdin", "--stdout",
        ]  # fmt: skip
        try:
            proc = await asyncio.create_subprocess_exec(
                *args,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
        except OSError as exc:
            raise TTSUnavailable(f"espeak-ng cannot be started: {exc}", backend=self.name) from exc
        try:
            out, err = await asyncio.wait_for(proc.communicate(text.encode("utf-8")), self.timeout_s)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise TTSTimeout(f"espeak-ng took longer than {self.timeout_s:g} s", backend=self.name) from None
        except asyncio.CancelledError:  # the flight was aborted mid-render: leave no process behind
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            raise
        if proc.returncode != 0 or len(out) <= 44:
            raise TTSError(
                f"espeak-ng failed (exit {proc.returncode}): {err.decode('utf-8', 'replace').strip()[:200]}",
                backend=self.name,
            )
        return out


# -- gTTS ---------------------------------------------------------------------------------------

GTTS_LANGS: Mapping[str, str] = {"en": "en", "ru": "ru", "cs": "cs", "sk": "sk"}


def _default_gtts_factory(**kwargs: Any) -> Any:
    from gtts import gTTS

    return gTTS(**kwargs)


class GTTSBackend:
    """gTTS on a dedicated thread pool with a hard deadline.

    `gtts_factory(text=, lang=, tld=, timeout=)` must return an object with `write_to_fp(fp)`; it is
    `gtts.gTTS` by default, and tests inject fakes (or patch the HTTP layer under gTTS) so nothing
    ever touches the network.
    """

    name = "gtts"

    def __init__(
        self,
        *,
        gtts_factory: Callable[..., Any] | None = None,
        tld: str = "com",
        timeout_s: float = 10.0,
        max_workers: int = 4,
        langs: Mapping[str, str] = GTTS_LANGS,
    ) -> None:
        self._factory = gtts_factory or _default_gtts_factory
        self.tld = tld
        self.timeout_s = timeout_s
        self.langs = dict(langs)
        self._executor = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="gtts")

    def supports(self, lang: str) -> bool:
        return lang in self.langs

    def voice(self, lang: str) -> str:
        return f"{self.langs.get(lang, lang)};tld={self.tld}"

    def _blocking(self, text: str, lang: str) -> bytes:
        buf = io.BytesIO()
        # The requests timeout bounds how long a worker thread can stay stuck after we gave up.
        tts = self._factory(text=text, lang=self.langs[lang], tld=self.tld, timeout=self.timeout_s)
        tts.write_to_fp(buf)
        return buf.getvalue()

    async def synthesize(self, text: str, lang: str) -> bytes:
        if not self.supports(lang):
            raise TTSUnavailable(f"gTTS is not configured for {lang!r}", backend=self.name)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._executor, self._blocking, text, lang)
        try:
            data = await asyncio.wait_for(future, self.timeout_s)
        except TimeoutError:
            raise TTSTimeout(f"gTTS did not answer within {self.timeout_s:g} s", backend=self.name) from None
        except Exception as exc:
            raise _classify_gtts_error(exc) from exc
        if not data:
            raise TTSError("gTTS returned no audio", backend=self.name)
        return data

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _classify_gtts_error(exc: BaseException) -> TTSError:
    """Map gTTS/requests exceptions to our error kinds; 429 and Google's 'sorry' page are rate limits."""
    # Not `a or b`: a requests.Response is falsy when its status is an error.
    rsp = getattr(exc, "rsp", None)
    if rsp is None:
        rsp = getattr(exc, "response", None)
    status = getattr(rsp, "status_code", None)
    text = str(exc)
    if status == 429 or "429" in text or "google.com/sorry" in text:
        return TTSRateLimited(f"gTTS rate limited: {text}", backend="gtts")
    if isinstance(exc, TTSError):
        return exc
    return TTSError(f"gTTS failed: {type(exc).__name__}: {text}", backend="gtts")


# -- circuit breaker ----------------------------------------------------------------------------


class CircuitBreaker:
    """Closed -> open on a failure -> half-open after the cool-down -> closed on one success.

    While open, callers skip the guarded engine entirely (no network wait for every line).  The
    cool-down doubles on consecutive trips up to `max_cooldown_s`, and a rate limit starts at the
    longer `rate_limit_cooldown_s`: Google's blocks last tens of minutes, hammering them extends it.
    Only one probe is let through in the half-open state.  The clock is injected for tests.
    """

    def __init__(
        self,
        *,
        cooldown_s: float = 300.0,
        rate_limit_cooldown_s: float = 900.0,
        max_cooldown_s: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self.cooldown_s = cooldown_s
        self.rate_limit_cooldown_s = rate_limit_cooldown_s
        self.max_cooldown_s = max_cooldown_s
        self._clock = clock
        self._wall = wall_clock
        self._open_until: float | None = None
        self._trips = 0
        self._probing = False
        self.last_error: str | None = None
        #: Called after every state change (`voice.health` stores the state on disk with it).
        self.on_change: Callable[[], None] | None = None

    @property
    def state(self) -> Literal["closed", "open", "half-open"]:
        if self._open_until is None:
            return "closed"
        return "open" if self._clock() < self._open_until else "half-open"

    def allow(self) -> bool:
        """May the guarded engine be called now?  In half-open state only one caller gets a yes."""
        state = self.state
        if state == "closed":
            return True
        if state == "half-open" and not self._probing:
            self._probing = True
            return True
        return False

    def record_success(self) -> None:
        changed = self._open_until is not None or self._trips
        self._open_until = None
        self._trips = 0
        self._probing = False
        if changed:
            self._changed()

    def record_failure(self, error: BaseException | str, *, rate_limited: bool = False) -> None:
        base = self.rate_limit_cooldown_s if rate_limited else self.cooldown_s
        delay = min(self.max_cooldown_s, base * (2**self._trips))
        self._trips += 1
        self._open_until = self._clock() + delay
        self._probing = False
        self.last_error = str(error)
        self._changed()

    @property
    def retry_at(self) -> float | None:
        return self._open_until

    def _changed(self) -> None:
        if self.on_change is not None:
            with contextlib.suppress(Exception):  # storing is best effort; the breaker still works
                self.on_change()

    def snapshot(self) -> dict[str, Any]:
        """The state in wall-clock terms, so it means the same thing to the next process."""
        open_until = None if self._open_until is None else self._wall() + (self._open_until - self._clock())
        return {"open_until_wall": open_until, "trips": self._trips, "last_error": self.last_error}

    def restore(self, data: Mapping[str, Any]) -> None:
        """Take over a `snapshot()` (from before a restart): an engine that was down stays skipped."""
        until = data.get("open_until_wall")
        self._trips = int(data.get("trips") or 0)
        self.last_error = data.get("last_error")
        self._open_until = None if until is None else self._clock() + (float(until) - self._wall())
        self._probing = False


# -- choosing engines ---------------------------------------------------------------------------


@dataclass
class SpeechEngines:
    """The engines a setting resolves to: `primary` first (guarded by `breaker`), then `fallback`."""

    primary: TTSBackend | None
    fallback: TTSBackend | None
    breaker: CircuitBreaker

    def order(self, lang: str) -> list[TTSBackend]:
        """Engines to consider for a language, best first (cache lookups follow this order)."""
        return [b for b in (self.primary, self.fallback) if b is not None and b.supports(lang)]

    def describe(self) -> str:
        names = [b.name for b in (self.primary, self.fallback) if b is not None]
        return " -> ".join(names) or "none"


def make_engines(
    setting: str = "auto",
    *,
    gtts_factory: Callable[..., Any] | None = None,
    gtts_timeout_s: float = 10.0,
    gtts_tld: str = "com",
    gtts_retry_after_s: float = 300.0,
    espeak: EspeakBackend | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> SpeechEngines:
    """Resolve `TTS_BACKEND`.

    * ``espeak``: offline only, never touches the network.
    * ``gtts``: gTTS preferred; espeak-ng is still the fallback, because a flight must never go
      silent, but gTTS missing from the install is an error instead of a silent downgrade.
    * ``auto`` (default): gTTS preferred if the package imports, espeak-ng as the fallback; if
      espeak-ng is missing, gTTS alone.
    """
    if setting not in BACKEND_SETTINGS:
        raise ValueError(f"TTS_BACKEND must be one of {', '.join(BACKEND_SETTINGS)}, not {setting!r}")
    breaker = CircuitBreaker(cooldown_s=gtts_retry_after_s, clock=clock)
    espeak = espeak or EspeakBackend()
    espeak_ok = espeak.available()
    if setting == "espeak":
        return SpeechEngines(None, espeak if espeak_ok else None, breaker)
    gtts_ok = gtts_factory is not None
    if not gtts_ok:
        try:
            import gtts  # noqa: F401

            gtts_ok = True
        except ImportError:
            if setting == "gtts":
                raise TTSUnavailable("TTS_BACKEND=gtts but the gTTS package is not installed") from None
    primary = GTTSBackend(gtts_factory=gtts_factory, timeout_s=gtts_timeout_s, tld=gtts_tld) if gtts_ok else None
    return SpeechEngines(primary, espeak if espeak_ok else None, breaker)
