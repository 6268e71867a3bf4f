"""espeak-ng (real) speaks every phrase of the catalogue in every language, audibly and at a sane length;
and the real S2-1 script, rendered by espeak-ng, plays on time through the scheduler."""

from __future__ import annotations

import array
import asyncio
import itertools

import pytest

from bot.games.space_alert.intercom import render, worded
from engine.flight.script import intercom_script
from engine.flight.timeline import load_official
from engine.vocab import LANGUAGES as LANGS
from tests.voice.fakes import FakeVoice, VirtualClock
from voice.audio import FRAME_S, decode_opus, peak
from voice.config import VoiceConfig
from voice.player import VoiceService
from voice.tts import EspeakBackend

pytestmark = pytest.mark.skipif(not EspeakBackend().available(), reason="espeak-ng is not installed")

FIXED = ("mission_start", "incoming_data", "data_transfer", "transfer_countdown", "transfer_complete",
         "comm_down", "comm_restored", "operation_ended")  # fmt: skip
PHASES = ((1, False), (2, False), (2, True), (3, True))  # (phase, is the last phase)


def every_phrase(lang: str) -> list[str]:
    """Every distinct text the catalogue can produce for `lang`."""
    out = [render(k, lang) for k in FIXED]
    # repeat=True is what the script speaks; its text contains the repeat=False text whole.
    for turn, serious, unconfirmed, repeat in itertools.product(range(1, 9), (False, True), (False, True), (True,)):
        for zone in ("red", "white", "blue"):
            out.append(render("threat", lang, turn=turn, zone=zone, serious=serious, internal=False,
                              unconfirmed=unconfirmed, repeat=repeat))  # fmt: skip
        out.append(render("threat", lang, turn=turn, zone=None, serious=serious, internal=True,
                          unconfirmed=unconfirmed, repeat=repeat))  # fmt: skip
    for kind in ("one_minute_warning", "twenty_seconds_warning", "countdown"):
        out += [render(kind, lang, phase=p, last=last) for p, last in PHASES]
    out += [render("count", lang, n=n) for n in range(1, 6)]
    out += [render("phase_ended", lang, phase=p) for p in (1, 2)]
    out += [render("phase_begins", lang, phase=p) for p in (2, 3)]
    return list(dict.fromkeys(out))


def native_pcm(wav: bytes) -> tuple[bytes, int]:
    """espeak-ng's WAV as mono s16 at its own rate (no resampling: this test checks the voice)."""
    import miniaudio

    info = miniaudio.decode(wav, output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1, sample_rate=22050)
    return info.samples.tobytes(), 22050


def window_peaks(pcm: bytes, rate: int) -> list[int]:
    """Peak of each 20 ms window, looking at every 4th sample (cheap, and plenty to tell speech
    from silence)."""
    arr = array.array("h")
    arr.frombytes(pcm)
    win = rate // 50
    out = []
    for i in range(0, len(arr), win):
        chunk = arr[i : i + win : 4]
        out.append(max(max(chunk), -min(chunk)))
    return out


async def test_espeak_renders_every_phrase_of_every_language():
    espeak = EspeakBackend()
    sem = asyncio.Semaphore(6)
    failures: list[str] = []
    counted = 0

    async def check(text: str, lang: str) -> None:
        nonlocal counted
        async with sem:
            wav = await espeak.synthesize(text, lang)
        pcm, rate = native_pcm(wav)
        peaks = window_peaks(pcm, rate)
        loud = [i for i, p in enumerate(peaks) if p > 300]
        spoken = peaks[loud[0] : loud[-1] + 1] if loud else []
        seconds = len(spoken) / 50  # from the first to the last audible window
        words = len(text.split())
        counted += 1
        if not spoken or max(spoken) < 3000 or sum(p > 1000 for p in spoken) / len(spoken) < 0.3:
            failures.append(f"{lang} silent-ish: {text!r}")
        if not (0.12 * words + 0.1 <= seconds <= 1.0 * words + 1.0):
            failures.append(f"{lang} implausible length {seconds:.2f} s for {words} words: {text!r}")

    items = [(t, lang) for lang in LANGS for t in every_phrase(lang)]
    await asyncio.gather(*(check(t, lang) for t, lang in items))
    assert counted == len(items) > 3 * 140
    assert failures == []


@pytest.fixture(scope="module")
def s2_1_service(tmp_path_factory) -> VoiceService:
    return VoiceService(VoiceConfig(tts_backend="espeak", cache_dir=tmp_path_factory.mktemp("voice-cache")))


@pytest.mark.parametrize("lang", LANGS)
async def test_real_s2_1_script_renders_and_plays_on_time(s2_1_service, lang):
    cues = worded(intercom_script(load_official("S2-1"), lang))
    clock = VirtualClock()
    sink = FakeVoice(clock)
    player = s2_1_service.player(sink, clock=clock, sleep=clock.sleep)
    prepared = await player.prepare(cues)
    assert prepared.ok, prepared.problems
    assert prepared.lines == len(cues)
    prefixes = {*s2_1_service.effects.clip("alert").frames, *s2_1_service.effects.clip("beep").frames}
    for line in player.lines:
        assert line.clip.source in ("espeak", "effect")
        # speech is trimmed to its onset: one lead-in frame, then the voice (effects start at once)
        effect_first = line.clip.frames[0] in prefixes
        assert line.clip.lead_frames == (0 if effect_first else 1), line.kind
    # every rendered line decodes back to audible audio
    sample = {ln.text: ln for ln in player.lines}.values()
    for line in sample:
        assert peak(decode_opus(line.clip.frames), stride=5) > 2000, line.text

    t0 = clock() + 3
    player.start(t0)
    report = await clock.run(player.wait())
    recs = report.lines
    assert all(r.status == "played" for r in recs)
    half = FRAME_S / 2 + 1e-6
    lines = {ln.index: ln for ln in player.lines}
    for prev, rec in itertools.pairwise(recs):
        # on time, or (queued) right after the line before it ended, to the frame
        assert abs(rec.started - max(rec.due, prev.ended + lines[rec.index].clip.lead_s)) <= half
        assert prev.ended <= rec.started - lines[rec.index].clip.lead_s + 1e-6  # never two sounds at once

    # the moments the rules hang on are exact to the frame: "one" on every phase end, the beep on every close
    def kind_at(moment: float) -> str | None:
        return next((r.kind for r in recs if abs(r.started - (t0 + moment)) <= half), None)

    for end in load_official("S2-1").phase_end_s:
        assert kind_at(float(end)) == "count", (lang, end)
    beeps = [c.at_s for c in cues if c.effect == "beep"]
    assert beeps and all(kind_at(b) == "transfer_complete" for b in beeps)
    late = [r for r in recs if r.lateness_s > half]
    # only the tight data-transfer lead-in lines may queue with espeak-ng's voice
    assert {r.kind for r in late} <= {"transfer_countdown", "count"}, [(r.kind, r.lateness_s) for r in late]
    assert max((r.lateness_s for r in recs), default=0) < 2.0
