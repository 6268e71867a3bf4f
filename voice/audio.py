"""PCM and Opus primitives: decode in-process, trim, measure, and pre-encode 20 ms Opus frames.

Discord voice wants 48 kHz stereo signed 16-bit audio in 20 ms packets.  We decode whatever a TTS
backend gives us (MP3 from gTTS, WAV from espeak-ng) with miniaudio, so no ffmpeg process is spawned
per clip, and we encode the PCM to Opus *once*, when the line is rendered.  At playback time the
bot only hands out ready-made Opus packets, which is what keeps a speaking flight nearly free of CPU.

numpy is deliberately not used: the stdlib `array` module plus C-speed builtins (`max`, `min`,
slicing) are enough for the few whole-buffer passes we need, and they keep the dependency list
short.
"""

from __future__ import annotations

import array
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SAMPLE_RATE = 48_000
CHANNELS = 2
SAMPLE_WIDTH = 2  # signed 16-bit
FRAME_MS = 20
SAMPLES_PER_FRAME = SAMPLE_RATE * FRAME_MS // 1000  # per channel: 960
FRAME_BYTES = SAMPLES_PER_FRAME * CHANNELS * SAMPLE_WIDTH  # 3,840
BYTES_PER_SECOND = SAMPLE_RATE * CHANNELS * SAMPLE_WIDTH  # 192,000
FRAME_S = FRAME_MS / 1000.0

#: Opus bitrate for pre-encoded clips (kbit/s).  Speech and simple tones sound clean at 64 kbit/s,
#: and smaller frames mean a smaller cache.
OPUS_BITRATE = 64


class AudioError(RuntimeError):
    """Audio could not be decoded or encoded (bad data, or libopus missing)."""


def decode_to_pcm(data: bytes) -> bytes:
    """Decode MP3/WAV/FLAC/Vorbis bytes to 48 kHz stereo s16le PCM, in-process (miniaudio).

    miniaudio resamples and up-mixes for us; it wants `bytes`, not `bytearray` (cffi refuses the
    latter), so we normalise the argument.
    """
    import miniaudio

    try:
        decoded = miniaudio.decode(
            bytes(data),
            output_format=miniaudio.SampleFormat.SIGNED16,
            nchannels=CHANNELS,
            sample_rate=SAMPLE_RATE,
        )
    except miniaudio.DecodeError as exc:
        raise AudioError(f"cannot decode audio ({len(data)} bytes): {exc}") from exc
    samples = decoded.samples
    if sys.byteorder != "little":  # pragma: no cover - Discord wants little-endian PCM
        samples.byteswap()
    out: bytes = samples.tobytes()
    return out


def pcm_duration_s(pcm: bytes | bytearray | memoryview) -> float:
    """Length of a 48 kHz stereo s16 buffer in seconds."""
    return len(pcm) / BYTES_PER_SECOND


def _samples(pcm: bytes | bytearray | memoryview) -> array.array[int]:
    arr = array.array("h")
    arr.frombytes(bytes(pcm[: len(pcm) - len(pcm) % SAMPLE_WIDTH]))
    return arr


def peak(pcm: bytes | bytearray | memoryview, stride: int = 1) -> int:
    """Largest absolute sample value (0..32768); 0 means digital silence.

    `stride` > 1 looks at every n-th sample only (C-speed slicing), a cheap estimate that is plenty
    for "is anything audible here" checks on long clips.
    """
    arr = _samples(pcm)
    if stride > 1:
        arr = arr[::stride]
    if not arr:
        return 0
    return int(max(max(arr), -min(arr)))


def rms(pcm: bytes | bytearray | memoryview) -> float:
    """Root mean square level of the buffer (0..32768), for 'is this audible' checks in tests."""
    arr = _samples(pcm)
    if not arr:
        return 0.0
    return math.sqrt(math.fsum(s * s for s in arr) / len(arr))


def trim_silence(pcm: bytes, threshold: int = 300, keep_s: float = 0.04) -> bytes:
    """Cut leading and trailing near-silence, keeping a short pad on both sides.

    TTS engines add up to half a second of silence around speech (gTTS's MP3 encoder delay,
    espeak-ng's pause at the end).  Scanning is per 20 ms frame with C-speed `max`/`min`.
    Speech clips use `trim_to_onset` instead, which also pins the first audible sample.
    """
    arr = _samples(pcm)
    bounds = _loud_bounds(arr, threshold)
    if bounds is None:
        return b""
    first, last = bounds
    keep = int(keep_s * SAMPLE_RATE) * CHANNELS
    start = max(0, first - keep)
    end = min(len(arr), last + keep)
    start -= start % CHANNELS
    end -= end % CHANNELS
    return arr[start:end].tobytes()


def _loud_bounds(arr: array.array[int], threshold: int) -> tuple[int, int] | None:
    """(index of the first loud frame's start, end of the last loud frame), or None if all quiet."""
    step = SAMPLES_PER_FRAME * CHANNELS
    n = len(arr)

    def loud(i: int) -> bool:
        chunk = arr[i : i + step]
        return bool(max(chunk) > threshold or -min(chunk) > threshold)

    first = 0
    while first < n and not loud(first):
        first += step
    if first >= n:
        return None
    last = (n - 1) // step * step
    while last > first and not loud(last):
        last -= step
    return first, min(n, last + step)


#: Frames of lead-in a speech clip keeps before its first audible sample (see `trim_to_onset`).
LEAD_FRAMES = 1


def trim_to_onset(pcm: bytes, threshold: int = 300, tail_s: float = 0.04) -> bytes:
    """Trim so that the first audible sample is exactly the first sample of frame `LEAD_FRAMES`.

    The lateness the crew hears is measured to the first audible sample, not to the first packet.
    A clip that starts with 40 ms of near-silence is 40 ms late however punctually it is sent, so
    speech is cut to one frame of lead-in (kept for a natural attack, zero-padded if the engine gave
    less) and the scheduler starts the clip that one frame early (`Clip.lead_frames`).
    """
    arr = _samples(pcm)
    bounds = _loud_bounds(arr, threshold)
    if bounds is None:
        return b""
    first, last = bounds
    onset = first
    for i in range(first, min(len(arr), first + SAMPLES_PER_FRAME * CHANNELS)):
        if arr[i] > threshold or -arr[i] > threshold:
            onset = i
            break
    onset -= onset % CHANNELS
    lead = LEAD_FRAMES * SAMPLES_PER_FRAME * CHANNELS
    tail = int(tail_s * SAMPLE_RATE) * CHANNELS
    end = min(len(arr), last + tail)
    end -= end % CHANNELS
    body = arr[max(0, onset - lead) : end].tobytes()
    missing = lead - min(lead, onset)
    return bytes(missing * SAMPLE_WIDTH) + body


def silence(seconds: float) -> bytes:
    """Digital silence of the given length, rounded to whole sample pairs."""
    return bytes(round(seconds * SAMPLE_RATE) * CHANNELS * SAMPLE_WIDTH)


def pad_to_frames(pcm: bytes) -> bytes:
    """Zero-pad to a whole number of 20 ms frames (Discord reads exactly 3,840 bytes per frame)."""
    rest = len(pcm) % FRAME_BYTES
    return pcm if rest == 0 else pcm + bytes(FRAME_BYTES - rest)


def split_frames(pcm: bytes) -> list[bytes]:
    """The buffer as a list of 3,840-byte frames (last one zero-padded)."""
    pcm = pad_to_frames(pcm)
    return [pcm[i : i + FRAME_BYTES] for i in range(0, len(pcm), FRAME_BYTES)]


def opus_available() -> bool:
    """True when libopus can be loaded (Debian package libopus0)."""
    try:
        import discord.opus

        discord.opus._OpusStruct.get_opus_version()
    except Exception:
        return False
    return True


def make_encoder(bitrate: int = OPUS_BITRATE) -> Any:  # discord.opus.Encoder
    """A fresh Opus encoder (not thread-safe: one per clip being encoded)."""
    import discord.opus

    try:
        return discord.opus.Encoder(application="audio", bitrate=bitrate, fec=True, signal_type="auto")
    except discord.opus.OpusNotLoaded as exc:
        raise AudioError("libopus is not available (install the Debian package libopus0)") from exc


def encode_opus(pcm: bytes, bitrate: int = OPUS_BITRATE) -> list[bytes]:
    """Encode PCM into 20 ms Opus packets once, so playback never runs the encoder."""
    encoder = make_encoder(bitrate)
    return [encoder.encode(frame, SAMPLES_PER_FRAME) for frame in split_frames(pcm)]


def decode_opus(frames: Sequence[bytes]) -> bytes:
    """Decode Opus packets back to PCM (used by tests to check what was actually stored)."""
    import discord.opus

    decoder = discord.opus.Decoder()  # type: ignore[no-untyped-call]
    return b"".join(decoder.decode(f, fec=False) for f in frames)


@dataclass(frozen=True, slots=True)
class Clip:
    """A piece of audio ready to play: pre-encoded 20 ms Opus packets.

    `duration_s` is exact (frames x 20 ms), so the scheduler knows when a line ends without asking
    the voice client.  `source` says which backend produced it (``espeak``, ``gtts``, ``effect``),
    useful in reports and logs.  `lead_frames` is how many frames come before the first audible
    sample: the mixer starts the clip that many frames early so the voice lands on its instant.
    """

    frames: tuple[bytes, ...]
    source: str = ""
    lead_frames: int = 0

    @property
    def duration_s(self) -> float:
        return len(self.frames) * FRAME_S

    @property
    def lead_s(self) -> float:
        return self.lead_frames * FRAME_S

    @property
    def nbytes(self) -> int:
        return sum(len(f) for f in self.frames)

    def __add__(self, other: Clip) -> Clip:
        return Clip.concat([self, other])

    @staticmethod
    def concat(clips: Sequence[Clip], source: str = "") -> Clip:
        """The clips back to back; the lead-in is the first clip's (an effect before speech has none)."""
        frames: list[bytes] = []
        for c in clips:
            frames.extend(c.frames)
        first = clips[0] if clips else None
        return Clip(tuple(frames), source or (first.source if first else ""), first.lead_frames if first else 0)

    def looped(self, seconds: float) -> Clip:
        """This clip repeated (and cut) to cover `seconds`; used for static and the klaxon loop."""
        if not self.frames:
            return self
        n = max(0, round(seconds / FRAME_S))
        frames = [self.frames[i % len(self.frames)] for i in range(n)]
        return Clip(tuple(frames), self.source)


def silence_clip(seconds: float, encoded_silence: bytes | None = None) -> Clip:
    """Silent frames (the standard Opus silence packet, so no encoder is needed)."""
    packet = encoded_silence or OPUS_SILENCE
    n = max(0, round(seconds / FRAME_S))
    return Clip((packet,) * n, "silence")


#: The 3-byte Opus "silence" packet Discord clients recognise (same bytes discord.py sends).
OPUS_SILENCE = b"\xf8\xff\xfe"
