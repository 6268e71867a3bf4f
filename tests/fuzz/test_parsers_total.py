"""Every parser of user text is total: for any string it returns a value or its coded refusal
(ScheduleError, SettingError, TimelineError, PackError, InRangeError, None), never another
exception that would reach the error handler's apology.

Arbitrary text (`st.text()`), plus what broke them before: Unicode digits that `str.isdigit` accepts
and `float()` or `int()` do not ("²", "٣"), numbers of hundreds or thousands of digits, and JSON
nested deeper than the recursion limit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.elite._cog import InRangeError, parse_in_range
from bot.games.space_alert.mission import ids as mission_ids
from bot.games.space_alert.replay import _ids as replay_ids
from bot.platform import components
from bot.platform.hosting.schedule import MAX_AHEAD_S, PROBLEMS, ScheduleError, parse_time
from bot.platform.hosting.server_settings import SETTING_KEYS, SETTING_PROBLEMS, SettingError, parse_setting
from engine.elite.datapack import DataPack, PackError, load_pack
from engine.flight.timeline import Timeline, TimelineError, timeline_from_bytes

NOW = 1_800_000_000.0
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

UNICODE_DIGITS = st.sampled_from("0123456789²³¹٣٤۵߁०১੩૪୫௬౭೮൯๑໒༣၄႕០᠑᥆᧑᪂᭓᮴᱕꘠꣐꤁꧐꩑꯰０１９𝟎𝟡")
DIGITS = st.text(UNICODE_DIGITS, min_size=1, max_size=30)
HUGE = st.integers(min_value=300, max_value=6000).map(lambda n: "1" * n)


def hostile_times() -> st.SearchStrategy[str]:
    number = st.one_of(DIGITS, HUGE, st.integers(-(10**30), 10**30).map(str))
    return st.one_of(
        st.text(),
        number,
        st.builds(lambda n: f"in {n}h", number),
        st.builds(lambda n, m: f"in {n}h{m}m", number, number),
        st.builds(lambda n: f"in {n} min", number),
        st.builds(lambda h, m: f"{h}:{m}", DIGITS, DIGITS),
        st.builds(lambda y: f"{y}-12-24 20:30", number),
        st.sampled_from(["0001-01-01T00:00+14:00", "9999-12-31T23:59-14:00", "²", "in ²h", "٣:٣٠", "1e999"]),
    )


@FAST
@given(hostile_times())
def test_schedule_times_are_read_or_refused_with_a_code(text: str) -> None:
    try:
        when = parse_time(text, NOW)
    except ScheduleError as refused:
        assert refused.code in PROBLEMS
        return
    assert NOW < when <= NOW + MAX_AHEAD_S


@pytest.mark.parametrize("text", ["²", "in " + "1" * 400 + "h", "in 1" + "0" * 5000 + "m", "9" * 5000])
def test_the_reported_schedule_inputs_are_refused(text: str) -> None:
    with pytest.raises(ScheduleError) as refused:
        parse_time(text, NOW)
    assert refused.value.code in ("unreadable", "too_far")


def hostile_setting_values() -> st.SearchStrategy[str]:
    return st.one_of(
        st.text(),
        DIGITS,
        HUGE,
        HUGE.map(lambda n: f"<#{n}>"),
        HUGE.map(lambda n: f"<@&{n}>"),
        st.builds(lambda d: f"<#{d}>", DIGITS),
        st.lists(st.sampled_from(["<#123456789012345678>", "any", "everyone", "٣", "on", "1" * 22]), max_size=6).map(
            " ".join
        ),
    )


@FAST
@given(st.sampled_from([*SETTING_KEYS, "nope", ""]), hostile_setting_values())
def test_settings_values_are_read_or_refused_with_a_code(key: str, text: str) -> None:
    try:
        value = parse_setting(key, text)
    except SettingError as refused:
        assert refused.code in SETTING_PROBLEMS
        return
    json.dumps(value)  # what is stored is JSON
    if key == "channels":
        assert all(0 < c < 10**21 for c in value)


def test_a_five_thousand_digit_channel_id_is_refused() -> None:
    for text in ("1" * 5000, f"<#{'1' * 5000}>"):
        with pytest.raises(SettingError) as refused:
            parse_setting("channels", text)
        assert refused.value.code == "channels"


def json_documents() -> st.SearchStrategy[str]:
    leaves = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20))
    values = st.recursive(
        leaves, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    )
    return st.one_of(
        st.text(),
        values.map(json.dumps),
        st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
        st.integers(1, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
        HUGE.map(lambda n: f'{{"id": "x", "phases": {n}}}'),
        HUGE.map(lambda n: f'{{"version": 1, "bosses": [{n}.5e{n}]}}'),
    )


@FAST
@given(json_documents())
def test_custom_timelines_are_read_or_refused_with_a_reason(text: str) -> None:
    try:
        assert isinstance(timeline_from_bytes(text.encode("utf-8", "surrogatepass")), Timeline)
    except TimelineError as refused:
        assert str(refused)


@FAST
@given(st.one_of(json_documents(), st.binary(max_size=200)))
def test_elite_packs_are_read_or_refused_with_a_code(raw: str | bytes) -> None:
    try:
        assert isinstance(load_pack(raw), DataPack)
    except PackError as refused:
        assert refused.code.startswith("pack_")


@FAST
@given(
    st.one_of(st.text(), st.lists(st.sampled_from(["akosha", "gerid", "²", "٣", "1" * 5000, ",", " "])).map(" ".join))
)
def test_elite_in_range_counts_are_read_or_refused_with_a_code(text: str) -> None:
    try:
        counts = parse_in_range(text)
    except InRangeError as refused:
        assert refused.key in ("unknown_hero", "count", "none")
        return
    assert counts and all(0 <= n <= 15 for n in counts.values())


@FAST
@given(st.one_of(st.text(), st.text().map(lambda t: "sa:0123abcd:join:" + t), HUGE.map(lambda n: f"elite:next:{n}")))
def test_custom_ids_from_a_click_parse_or_are_refused(text: str) -> None:
    parsed: Any = components.parse(text)
    assert parsed is None or len(text) <= components.MAX_LEN
    assert mission_ids.parse(text) is None or text.startswith("sa:")
    assert replay_ids.parse(text) is None or text.startswith("sr:")
