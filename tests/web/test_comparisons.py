"""What-if comparisons kept for a flight (table flight_comparisons) and shown on its page in every
language, and the page cache keyed by the data's version: a page is never older than the store.
On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.space_alert.comparisons import Comparison, Comparisons, add_comparison
from bot.games.space_alert.logbook import Logbook, LogbookCrew
from bot.web.app import PAGES, Pages
from tests.web import seed
from tests.web.test_routes import get, get_json

WHATIF = Comparison(
    flight_id=seed.PUBLIC_FLIGHT,
    kind="whatif",
    asked_by=seed.ANN,
    asked_name="Ann",
    board="Ann",
    plan="00a" + "---" * 11,
    changes=[{"turn": 2, "real": "a", "alt": "-"}, {"turn": 5, "real": "-", "alt": "<"}],
    real_outcome="destroyed",
    real_total=0,
    alt_outcome="survived",
    alt_total=21,
    diverges_at=2,
)
HINDSIGHT = Comparison(
    flight_id=seed.PUBLIC_FLIGHT,
    kind="hindsight",
    asked_by=seed.BOB,
    asked_name="Bob",
    changes=[
        {"player": "Bob", "kind": "flip", "card": "c1", "from_turn": 3, "to_turn": 3, "code": "b", "was": "^"},
        {"player": "Ann", "kind": "play", "card": "c2", "from_turn": None, "to_turn": 7, "code": "c", "was": None},
    ],
    real_outcome="destroyed",
    real_total=0,
    alt_outcome="survived",
    alt_total=9,
    diverges_at=3,
)
# how each language words "turn 5: ... instead of ..." and the Hindsight flip, as the page shows them
WORDS = {
    "en": ("turn 5:", "instead of", "Bob had played", "What-if comparisons"),
    "ru": ("ход 5:", "вместо", "Bob", "Сравнения «что, если»"),
    "cs": ("kolo 5:", "místo", "Bob", "Srovnání „co kdyby“"),
    "sk": ("kolo 5:", "namiesto", "Bob", "Porovnania „čo keby“"),
}


async def test_kept_once_and_read_back_in_order(storage: Any) -> None:
    assert await Comparisons(storage).add(WHATIF) is True
    assert await Comparisons(storage).add(HINDSIGHT) is True
    assert await Comparisons(storage).add(WHATIF) is False  # the same plan again: still one row
    other = Comparison(**{**WHATIF.__dict__, "plan": "---" * 12, "id": 0})
    assert await Comparisons(storage).add(other) is True  # another plan is another comparison
    kept = await Comparisons(storage).of_flight(seed.PUBLIC_FLIGHT)
    assert [(c.kind, c.asked_name, c.plan) for c in kept] == [
        ("whatif", "Ann", WHATIF.plan),
        ("hindsight", "Bob", ""),
        ("whatif", "Ann", "---" * 12),
    ]
    first = kept[0]
    assert first.changes == WHATIF.changes and first.asked_by == seed.ANN
    assert (first.real_outcome, first.real_total, first.alt_outcome, first.alt_total) == (
        "destroyed",
        0,
        "survived",
        21,
    )
    assert first.delta == 21 and first.diverges_at == 2 and first.asked_at and first.id > 0
    assert kept[1].changes[0]["was"] == "^" and kept[1].board == ""
    assert await Comparisons(storage).of_flight("nosuchid") == []
    with pytest.raises(ValueError):
        await Comparisons(storage).add(Comparison(**{**WHATIF.__dict__, "kind": "guess", "id": 0}))


async def test_kept_in_the_callers_unit_of_work(storage: Any) -> None:
    # the game's write goes through the platform's transaction: an undone unit of work keeps
    # nothing, and `Comparisons.add` inside one joins it instead of committing on its own
    class Undone(Exception):
        pass

    with pytest.raises(Undone):
        async with storage.transaction() as tx:
            assert await add_comparison(tx, WHATIF) is True
            assert await Comparisons(storage).add(HINDSIGHT) is True  # joins tx
            raise Undone
    assert await Comparisons(storage).of_flight(seed.PUBLIC_FLIGHT) == []
    async with storage.transaction() as tx:
        assert await add_comparison(tx, WHATIF) is True
    assert [c.kind for c in await Comparisons(storage).of_flight(seed.PUBLIC_FLIGHT)] == ["whatif"]


@pytest.mark.parametrize("lang", sorted(WORDS))
async def test_the_flight_page_shows_them_in_every_language(client: Any, seeded: Any, lang: str) -> None:
    await Comparisons(seeded).add(WHATIF)
    await Comparisons(seeded).add(HINDSIGHT)
    html = await get(client, f"/f/{seed.PUBLIC_FLIGHT}?lang={lang}")
    turn, instead, flip, heading = WORDS[lang]
    section = html[html.index('id="whatifs"') :]
    assert heading in section and turn in section and instead in section and flip in section
    assert "0 → <strong>21</strong> (+21)" in section and "0 → <strong>9</strong> (+9)" in section
    assert f'href="/p/{seed.ANN}?lang={lang}"' in section
    assert "web.whatif" not in section and "hindsight." not in section and "{" not in section


async def test_the_json_adds_them_and_keeps_its_keys(client: Any, seeded: Any) -> None:
    before = await get_json(client, f"/f/{seed.PUBLIC_FLIGHT}.json")
    assert before["flight"]["whatifs"] == []
    await Comparisons(seeded).add(WHATIF)
    after = await get_json(client, f"/f/{seed.PUBLIC_FLIGHT}.json")
    assert after["schema_version"] == before["schema_version"] == 1
    assert set(before["flight"]) == set(after["flight"])  # additive: the same keys, now filled
    (w,) = after["flight"]["whatifs"]
    assert (w["kind"], w["member"], w["player_id"], w["board"]) == ("whatif", "Ann", str(seed.ANN), "Ann")
    assert (w["real_outcome"], w["real_total"], w["outcome"], w["total"], w["delta"]) == (
        "destroyed",
        0,
        "survived",
        21,
        21,
    )
    assert w["changes"] == WHATIF.changes and len(w["changes_text"]) == 2
    assert w["changes_text"][0].startswith("ход 2:")  # the server's language (Russian)


async def test_a_private_flights_comparisons_never_show(client: Any, seeded: Any) -> None:
    await Comparisons(seeded).add(Comparison(**{**WHATIF.__dict__, "flight_id": seed.PRIVATE_FLIGHT, "id": 0}))
    await get(client, f"/f/{seed.PRIVATE_FLIGHT}", 404)
    await get_json(client, f"/f/{seed.PRIVATE_FLIGHT}.json", 404)


async def test_pages_are_served_from_the_cache_until_their_data_changes(client: Any, seeded: Any) -> None:
    pages = client.server.app[PAGES]
    paths = (f"/s/{seed.PUBLIC}", f"/f/{seed.PUBLIC_FLIGHT}.json", f"/p/{seed.BOB}", "/")
    first = [await get(client, p) for p in paths]
    flights = (await get_json(client, "/index.json"))["servers"][0]["flights"]
    hits = pages.hits
    assert [await get(client, p) for p in paths] == first and pages.hits == hits + len(paths)

    # a new flight: the server page, the index and Bob's career show it at once
    result = {"outcome": "survived", "threats": [], "score": {"total": 33}}
    await Logbook(seeded).add(
        seed.entry(
            "newf1ight",
            seed.PUBLIC,
            "S2-4",
            ("yellow", "yellow"),
            result,
            flown_at="2026-11-26T20:00:00+00:00",
            crew=[LogbookCrew(name="Bob", user_id=seed.BOB, roles=[])],
        )
    )
    assert "S2-4" in await get(client, f"/s/{seed.PUBLIC}")
    assert "S2-4" in await get(client, f"/p/{seed.BOB}")
    assert (await get_json(client, "/index.json"))["servers"][0]["flights"] == flights + 1

    # a comparison: the flight page shows it at once
    await Comparisons(seeded).add(WHATIF)
    assert len((await get_json(client, f"/f/{seed.PUBLIC_FLIGHT}.json"))["flight"]["whatifs"]) == 1

    # a renamed server: every page of it and the careers on it
    await seeded.set_setting(seed.PUBLIC, "public_name", "Orbit Club II")
    assert "Orbit Club II" in await get(client, f"/f/{seed.PUBLIC_FLIGHT}")
    assert "Orbit Club II" in await get(client, f"/p/{seed.BOB}")

    # the server's language: the page follows it
    await seeded.set_setting(seed.PUBLIC, "language", "cs")
    assert (await get_json(client, f"/s/{seed.PUBLIC}.json"))["lang"] == "cs"


async def test_the_cache_is_bounded_in_bytes() -> None:
    pages = Pages(limit=1000)
    for n in range(10):
        pages.put(("page", n), bytes(100), "text/html", "en")
    assert len(pages) == 10 and pages.size == 1000
    pages.put(("page", 10), bytes(100), "text/html", "en")
    assert pages.get(("page", 0)) is None and pages.get(("page", 10)) is not None and pages.size == 1000
    assert pages.get(("page", 1)) is not None  # used: moves to the back of the queue
    pages.put(("page", 11), bytes(100), "text/html", "en")
    assert pages.get(("page", 1)) is not None and pages.get(("page", 2)) is None
    pages.put(("huge",), bytes(900), "text/html", "en")  # over an eighth of the limit: not kept
    assert pages.get(("huge",)) is None and pages.size == 1000
