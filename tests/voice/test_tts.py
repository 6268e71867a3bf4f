"""gTTS against a fake HTTP layer (never the network), the circuit breaker, and the fallback to espeak-ng."""

from __future__ import annotations

import base64
import threading

import pytest
import requests

from tests.voice.fakes import FakeClock, FakeEngine, sine_wav
from voice.audio import peak
from voice.cache import AudioCache
from voice.render import Renderer, RenderStats
from voice.tts import (
    CircuitBreaker,
    EspeakBackend,
    GTTSBackend,
    SpeechEngines,
    TTSError,
    TTSRateLimited,
    TTSTimeout,
    TTSUnavailable,
    make_engines,
)


class FakeGoogle:
    """Replaces `requests.Session.send`: answers gTTS's batchexecute POSTs from a script."""

    def __init__(self) -> None:
        self.status = 200
        self.exc: BaseException | None = None
        self.requests: list[requests.PreparedRequest] = []

    def send(self, session, request, **kwargs):
        self.requests.append(request)
        assert kwargs.get("timeout") is not None, "gTTS must be called with a timeout"
        if self.exc is not None:
            raise self.exc
        resp = requests.Response()
        resp.status_code = self.status
        resp.reason = {200: "OK", 429: "Too Many Requests"}.get(self.status, "Error")
        resp.url = request.url
        resp.request = request
        resp._content_consumed = True  # serve _content from memory (no raw socket)
        if self.status == 200:
            b64 = base64.b64encode(sine_wav(0.5)).decode("ascii")
            resp._content = (')]}\'\n\n[["wrb.fr","jQ1olc","[\\"' + b64 + '\\"]",null,null,null,"generic"]]\n').encode()
        else:
            resp._content = b"<html>sorry</html>"
        return resp


@pytest.fixture
def google(monkeypatch) -> FakeGoogle:
    fake = FakeGoogle()
    monkeypatch.setattr(requests.Session, "send", lambda self, request, **kw: fake.send(self, request, **kw))
    return fake


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def engines_with(primary, fallback, clock, cooldown=300.0) -> SpeechEngines:
    return SpeechEngines(primary, fallback, CircuitBreaker(cooldown_s=cooldown, clock=clock))


async def test_gtts_success_through_the_real_gtts_code(google, clock, tmp_path):
    fallback = FakeEngine("espeak")
    renderer = Renderer(engines_with(GTTSBackend(timeout_s=5), fallback, clock), AudioCache(tmp_path))
    stats = RenderStats()
    clip = await renderer.speech("Time T plus one. Threat. Zone red.", "en", stats)
    assert clip.source == "gtts" and clip.duration_s > 0.3
    assert len(google.requests) == 1 and "batchexecute" in google.requests[0].url
    assert stats.synthesized == {"gtts": 1}  # espeak-ng raced it (its clip is only a spare)
    # the second time it is a cache hit: no HTTP request at all
    again = await renderer.speech("Time T plus one. Threat. Zone red.", "en", stats)
    assert again == clip and len(google.requests) == 1 and stats.cache_hits == 1


async def test_gtts_429_trips_the_breaker_and_espeak_takes_over(google, clock, tmp_path):
    google.status = 429
    espeak = EspeakBackend()
    engines = engines_with(GTTSBackend(timeout_s=5), espeak, clock)
    renderer = Renderer(engines, AudioCache(tmp_path))
    stats = RenderStats()
    clip = await renderer.speech("Incoming data.", "en", stats)
    assert clip.source == "espeak" and peak_of(clip) > 1000
    assert stats.fallbacks == 1 and engines.breaker.state == "open"
    assert "rate limited" in (engines.breaker.last_error or "")
    # while open, gTTS is not even asked
    await renderer.speech("Data transfer.", "en", stats)
    assert len(google.requests) == 1
    # a rate limit backs off longer than a plain failure (900 s vs 300 s)
    clock.advance(600)
    assert engines.breaker.state == "open"
    clock.advance(301)
    assert engines.breaker.state == "half-open"
    # Google is back: one probe, then gTTS again for new lines; espeak renderings stay cached apart
    google.status = 200
    clip2 = await renderer.speech("Communications restored.", "en", stats)
    assert clip2.source == "gtts" and engines.breaker.state == "closed"


async def test_gtts_request_timeout_falls_back(google, clock, tmp_path):
    google.exc = requests.exceptions.ReadTimeout("read timed out (simulated)")
    engines = engines_with(GTTSBackend(timeout_s=5), FakeEngine("espeak"), clock)
    renderer = Renderer(engines, AudioCache(tmp_path))
    clip = await renderer.speech("Repeat.", "en")
    assert clip.source == "espeak" and engines.breaker.state == "open"


async def test_gtts_hung_call_hits_the_deadline_and_falls_back(clock, tmp_path):
    release = threading.Event()

    class Hung:
        def __init__(self, **kwargs):
            assert kwargs["timeout"] == 0.2  # gTTS gets a requests timeout too
            assert kwargs["lang"] == "ru"

        def write_to_fp(self, fp):
            release.wait(5)

    gtts = GTTSBackend(gtts_factory=Hung, timeout_s=0.2)
    engines = engines_with(gtts, FakeEngine("espeak"), clock)
    renderer = Renderer(engines, AudioCache(tmp_path))
    try:
        with pytest.raises(TTSTimeout):
            await gtts.synthesize("Входящие данные.", "ru")
        clip = await renderer.speech("Входящие данные.", "ru")
    finally:
        release.set()
        gtts.close()
    assert clip.source == "espeak"
    assert engines.breaker.state == "open" and "did not answer" in (engines.breaker.last_error or "")


async def test_injected_gtts_factory_429_is_classified_as_rate_limit(clock):
    from gtts.tts import gTTSError

    class Limited:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

        def write_to_fp(self, fp):
            rsp = requests.Response()
            rsp.status_code = 429
            rsp.reason = "Too Many Requests"
            raise gTTSError(tts=None, response=rsp)

    with pytest.raises(TTSRateLimited):
        await GTTSBackend(gtts_factory=Limited, timeout_s=1).synthesize("Threat.", "cs")


def test_breaker_states_and_backoff(clock):
    br = CircuitBreaker(cooldown_s=10, rate_limit_cooldown_s=100, max_cooldown_s=35, clock=clock)
    assert br.state == "closed" and br.allow()
    br.record_failure("boom")
    assert br.state == "open" and not br.allow()
    clock.advance(10)
    assert br.state == "half-open"
    assert br.allow() and not br.allow()  # a single probe
    br.record_failure("still down")  # second trip: 20 s
    clock.advance(19.9)
    assert not br.allow()
    clock.advance(0.2)
    assert br.allow()
    br.record_failure("again")  # third trip would be 40 s, capped at 35
    assert br.retry_at == pytest.approx(clock() + 35)
    clock.advance(35)
    assert br.allow()
    br.record_success()
    assert br.state == "closed" and br.allow() and br.allow()
    br.record_failure("429", rate_limited=True)
    assert br.retry_at == pytest.approx(clock() + 35)  # capped as well


def test_backend_setting(clock):
    espeak = make_engines("espeak", clock=clock)
    assert espeak.primary is None and espeak.fallback is not None and espeak.fallback.name == "espeak"
    auto = make_engines("auto", clock=clock)
    assert auto.primary is not None and auto.primary.name == "gtts" and auto.fallback is not None
    assert auto.describe() == "gtts -> espeak"
    assert [b.name for b in auto.order("sk")] == ["gtts", "espeak"]
    with pytest.raises(ValueError):
        make_engines("polly", clock=clock)


async def test_espeak_speaks_slovak_when_asked_and_refuses_unknown_languages():
    espeak = EspeakBackend()
    wav = await espeak.synthesize("Príchodzie dáta.", "sk")
    assert wav[:4] == b"RIFF"
    with pytest.raises(TTSUnavailable):
        await espeak.synthesize("Hallo", "de")


async def test_no_engine_for_a_language_is_reported_not_crashed(clock, tmp_path):
    renderer = Renderer(engines_with(None, FakeEngine("espeak", langs=("en",)), clock), AudioCache(tmp_path))
    stats = RenderStats()
    out = await renderer.render_many([("Ahoj", "cs"), ("Hello", "en")], stats)
    assert list(out) == [("Hello", "en")]
    assert len(stats.errors) == 1 and "cs" in stats.errors[0]


def peak_of(clip) -> int:
    from voice.audio import decode_opus

    return peak(decode_opus(clip.frames))


async def test_outage_during_prerender_costs_one_request_and_cached_clips_need_no_network(google, clock, tmp_path):
    google.status = 429
    engines = engines_with(GTTSBackend(timeout_s=5), FakeEngine("espeak"), clock)
    renderer = Renderer(engines, AudioCache(tmp_path), concurrency=4)
    items = [(f"Line {i}.", "en") for i in range(6)]
    stats = RenderStats()
    out = await renderer.render_many(items, stats)
    assert len(google.requests) == 1  # the first line probes, the rest go straight to espeak-ng
    assert {c.source for c in out.values()} == {"espeak"} and stats.fallbacks == 6
    # Google is back after the cool-down: a line cached by any engine still costs no request...
    clock.advance(2000)
    google.status = 200
    stats = RenderStats()
    await renderer.render_many(items, stats)
    assert stats.cache_hits == 6 and len(google.requests) == 1
    # ...and new lines are rendered by gTTS again (and cached as such)
    fresh = [(f"New line {i}.", "en") for i in range(3)]
    stats = RenderStats()
    out = await renderer.render_many(fresh, stats)
    assert {c.source for c in out.values()} == {"gtts"} and stats.synthesized == {"gtts": 3}
    assert engines.breaker.state == "closed"


async def test_online_health_is_stored_and_restored_across_restarts(tmp_path, clock):
    from voice.health import StoredHealth

    breaker = CircuitBreaker(cooldown_s=300, clock=clock)
    StoredHealth(tmp_path, breaker)
    breaker.record_failure(TTSError("down"))
    assert (tmp_path / "engine-health.json").exists()
    restarted = CircuitBreaker(cooldown_s=300, clock=FakeClock(5.0))  # a new process, another monotonic origin
    StoredHealth(tmp_path, restarted)
    assert restarted.state == "open" and restarted.last_error == "down"
    breaker.record_success()
    again = CircuitBreaker(clock=clock)
    StoredHealth(tmp_path, again)
    assert again.state == "closed"


async def test_offline_only_never_asks_the_online_engine_nor_uses_its_cached_clips(clock, tmp_path):
    """A server that chose espeak-ng (/settings tts espeak): no gTTS request, no gTTS clip from the
    cache either, so every line of the flight has the same voice."""
    online, offline = FakeEngine("gtts"), FakeEngine("espeak")
    engines = engines_with(online, offline, clock)
    renderer = Renderer(engines, AudioCache(tmp_path))
    gtts_clip = await renderer.speech("Time T plus one.", "en")  # cached by gTTS, as another flight would
    assert gtts_clip.source == "gtts" and len(online.calls) == 1
    stats = RenderStats()
    clips, task = renderer.render_in_order([("Time T plus one.", "en"), ("Zone red.", "en")], stats, offline_only=True)
    await task
    assert {clips[k].result().source for k in clips} == {"espeak"}
    # gTTS was not asked again, and its cached clip was passed over for espeak-ng's (raced spare or new)
    assert len(online.calls) == 1 and stats.synthesized.get("gtts", 0) == 0
    assert engines.breaker.state == "closed"  # leaving gTTS out is not a failure of gTTS
