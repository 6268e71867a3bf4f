"""Ship intercom speech: text to speech backends, the audio cache and per-guild playback scheduling.

Layers (each importable and testable on its own; only `voice.discord_sink` imports discord.py):

* `voice.tts`: gTTS (online, behind a circuit breaker) and espeak-ng (offline) engines;
* `voice.audio`, `voice.effects`: in-process decoding, Opus pre-encoding, synthesized effects;
* `voice.cache`, `voice.render`: the on-disk clip cache and rendering through it;
* `voice.lines`, `voice.scheduler`: cues to lines, and the scheduler that feeds them in order;
* `voice.mixer`: the flight's one long-lived frame source (speech, effects, static, silence);
* `voice.health`: the online engine's health, stored next to the cache so it survives restarts;
* `voice.player`: `VoiceService` (per process) and `IntercomPlayer` (per flight), the bot's API;
* `voice.discord_sink`: the VoiceClient sink, permission checks and joining the host's channel.
"""

from voice.audio import Clip
from voice.cache import AudioCache
from voice.config import VoiceConfig
from voice.effects import EffectBank
from voice.health import StoredHealth
from voice.lines import CueLike, Line
from voice.mixer import FrameMixer, MixItem
from voice.player import IntercomPlayer, PrepareResult, VoiceService
from voice.scheduler import PlaybackScheduler
from voice.sink import LineRecord, VoiceReport, VoiceSink
from voice.tts import CircuitBreaker, EspeakBackend, GTTSBackend, TTSError, make_engines

__all__ = [
    "AudioCache",
    "CircuitBreaker",
    "Clip",
    "CueLike",
    "EffectBank",
    "EspeakBackend",
    "FrameMixer",
    "GTTSBackend",
    "IntercomPlayer",
    "Line",
    "LineRecord",
    "MixItem",
    "PlaybackScheduler",
    "PrepareResult",
    "StoredHealth",
    "TTSError",
    "VoiceConfig",
    "VoiceReport",
    "VoiceService",
    "VoiceSink",
    "make_engines",
]
