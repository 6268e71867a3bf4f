"""On-disk cache of rendered lines, stored as pre-encoded Opus frames.

Why Opus frames and not the MP3/WAV the engine returned: a cache hit must cost nothing.  Storing
the final form means a hit is one small file read (about 1 kB per second of speech at 64 kbit/s),
with no decoding, resampling or encoding.  A bounded in-memory LRU sits in front of the disk so
the lines of a running mission are served from memory.

Keys are sha256 over (format version, backend, voice, language, normalised text): the backend and
voice are part of the key so a line rendered by espeak-ng during a gTTS outage is never mistaken
for the gTTS rendering, and upgrading a voice invalidates only its own entries.

The cache is bounded: when it grows past `max_bytes`, the least recently used files (by mtime,
which a hit refreshes) are removed until it is back under 90 % of the cap.  Writes are atomic
(temporary file + rename), so a crash never leaves a half-written entry that later reads as valid.
"""

from __future__ import annotations

import array
import contextlib
import hashlib
import os
import struct
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from voice.audio import Clip

#: Bump when the rendering pipeline changes (trim, bitrate, ...) so old entries are not reused.
FORMAT_VERSION = 2  # 2: speech trimmed to its onset, lead-in frames stored in the header
_MAGIC = b"SAVC"
_HEADER = struct.Struct("<4sBHIB")  # magic, version, len(source), frame count, lead-in frames
_SUFFIX = ".opus-frames"


def normalise_text(text: str) -> str:
    """Collapse whitespace so trivially different spellings of a line share an entry."""
    return " ".join(text.split())


def cache_key(backend: str, voice: str, lang: str, text: str) -> str:
    """Stable key for one rendering of one line."""
    material = "\x1f".join((str(FORMAT_VERSION), backend, voice, lang, normalise_text(text)))
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def encode_clip(clip: Clip) -> bytes:
    """Serialise a clip: header, the frame lengths as uint16, then the frames back to back."""
    source = clip.source.encode("utf-8")[:255]
    lengths = array.array("H", (len(f) for f in clip.frames))
    if sys.byteorder != "little":  # pragma: no cover
        lengths.byteswap()
    return b"".join(
        (
            _HEADER.pack(_MAGIC, FORMAT_VERSION, len(source), len(clip.frames), min(255, clip.lead_frames)),
            source,
            lengths.tobytes(),
            *clip.frames,
        )
    )


def decode_clip(blob: bytes) -> Clip:
    """Inverse of `encode_clip`; raises ValueError on anything malformed."""
    magic, version, source_len, count, lead = _HEADER.unpack_from(blob, 0)
    if magic != _MAGIC or version != FORMAT_VERSION:
        raise ValueError("not a clip of this format version")
    pos = _HEADER.size
    source = blob[pos : pos + source_len].decode("utf-8")
    pos += source_len
    lengths = array.array("H")
    lengths.frombytes(blob[pos : pos + 2 * count])
    if sys.byteorder != "little":  # pragma: no cover
        lengths.byteswap()
    pos += 2 * count
    frames = []
    for n in lengths:
        frames.append(blob[pos : pos + n])
        pos += n
    if pos != len(blob):
        raise ValueError("clip length mismatch")
    return Clip(tuple(frames), source, lead)


@dataclass
class CacheStats:
    memory_hits: int = 0
    disk_hits: int = 0
    misses: int = 0
    writes: int = 0
    evicted_files: int = 0


class AudioCache:
    """Thread-safe two-level (memory LRU + disk) cache of `Clip`s.

    Methods are synchronous and do small file I/O; async callers run `get`/`put` through
    `asyncio.to_thread` when a disk access is possible.
    """

    def __init__(self, root: str | os.PathLike[str], *, max_bytes: int = 256 * 1024 * 1024, memory_items: int = 1024):
        self.root = Path(root)
        self.max_bytes = max_bytes
        self.memory_items = memory_items
        self.stats = CacheStats()
        self._lock = threading.Lock()
        self._memory: OrderedDict[str, Clip] = OrderedDict()
        self._disk_bytes: int | None = None  # computed lazily on first write

    # -- lookup ---------------------------------------------------------------------------------

    def path_for(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}{_SUFFIX}"

    def get_memory(self, key: str) -> Clip | None:
        """Memory-only lookup: never touches the disk, safe to call on the event loop."""
        with self._lock:
            clip = self._memory.get(key)
            if clip is not None:
                self._memory.move_to_end(key)
                self.stats.memory_hits += 1
            return clip

    def get(self, key: str) -> Clip | None:
        clip = self.get_memory(key)
        if clip is not None:
            return clip
        path = self.path_for(key)
        try:
            blob = path.read_bytes()
            clip = decode_clip(blob)
        except FileNotFoundError:
            with self._lock:
                self.stats.misses += 1
            return None
        except (OSError, ValueError, struct.error):
            # A corrupt or foreign file: treat as a miss and drop it, it will be re-rendered.
            with contextlib.suppress(OSError):
                path.unlink()
            with self._lock:
                self.stats.misses += 1
            return None
        with contextlib.suppress(OSError):
            now = time.time()
            os.utime(path, (now, now))  # mark as recently used for eviction
        with self._lock:
            self.stats.disk_hits += 1
            self._remember(key, clip)
        return clip

    # -- store ----------------------------------------------------------------------------------

    def put(self, key: str, clip: Clip) -> None:
        blob = encode_clip(clip)
        path = self.path_for(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        old_size = path.stat().st_size if path.exists() else 0
        tmp.write_bytes(blob)
        os.replace(tmp, path)
        with self._lock:
            self._remember(key, clip)
            self.stats.writes += 1
            if self._disk_bytes is None:
                self._disk_bytes = self._scan_size()
            else:
                self._disk_bytes += len(blob) - old_size
            over = self._disk_bytes > self.max_bytes
        if over:
            self._evict()

    def _remember(self, key: str, clip: Clip) -> None:
        self._memory[key] = clip
        self._memory.move_to_end(key)
        while len(self._memory) > self.memory_items:
            self._memory.popitem(last=False)

    # -- housekeeping ---------------------------------------------------------------------------

    def _files(self) -> list[Path]:
        if not self.root.exists():
            return []
        return [p for p in self.root.glob(f"*/*{_SUFFIX}") if p.is_file()]

    def _scan_size(self) -> int:
        total = 0
        for p in self._files():
            with contextlib.suppress(OSError):
                total += p.stat().st_size
        return total

    def size_bytes(self) -> int:
        """Bytes the cache currently uses on disk."""
        with self._lock:
            self._disk_bytes = self._scan_size()
            return self._disk_bytes

    def _evict(self) -> None:
        """Drop least recently used files until the cache is at 90 % of its cap."""
        entries = []
        for p in self._files():
            with contextlib.suppress(OSError):
                st = p.stat()
                entries.append((st.st_mtime, st.st_size, p))
        entries.sort()
        total = sum(size for _, size, _ in entries)
        target = int(self.max_bytes * 0.9)
        removed = 0
        for _, size, p in entries:
            if total <= target:
                break
            with contextlib.suppress(OSError):
                p.unlink()
                total -= size
                removed += 1
                with self._lock:
                    self._memory.pop(p.name[: -len(_SUFFIX)], None)
        with self._lock:
            self._disk_bytes = total
            self.stats.evicted_files += removed

    def clear(self) -> int:
        """Delete every entry (memory and disk); returns the number of files removed."""
        removed = 0
        for p in self._files():
            with contextlib.suppress(OSError):
                p.unlink()
                removed += 1
        with self._lock:
            self._memory.clear()
            self._disk_bytes = 0
        return removed

    def forget_memory(self) -> None:
        """Empty only the in-memory layer (benchmarks use this to measure disk hits)."""
        with self._lock:
            self._memory.clear()
