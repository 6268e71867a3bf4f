"""Every route of the web logbook: status, content, and privacy (a private server's pages are 404
whatever id is typed), on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest

from bot.games.space_alert.logbook import Logbook, LogbookCrew
from bot.web.app import REPLAYS
from tests.web import seed

PNG = b"\x89PNG\r\n\x1a\n"


class Page(HTMLParser):
    """The tags of a page worth asserting on: images, links, meta tags, the html lang."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.images: list[dict[str, str | None]] = []
        self.links: list[str] = []
        self.meta: dict[str, str] = {}
        self.lang: str | None = None
        self.title = ""
        self._in_title = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        elif tag == "img":
            self.images.append(a)
        elif tag == "a" and a.get("href"):
            self.links.append(str(a["href"]))
        elif tag == "meta" and a.get("property"):
            self.meta[str(a["property"])] = str(a.get("content"))
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


async def get(client: Any, path: str, status: int = 200) -> str:
    response = await client.get(path)
    assert response.status == status, f"{path}: {response.status}"
    return str(await response.text())


async def get_json(client: Any, path: str, status: int = 200) -> Any:
    response = await client.get(path)
    assert response.status == status, f"{path}: {response.status}"
    assert response.content_type == "application/json"
    return await response.json()


def shareable(page: Page) -> None:
    """A title, Open Graph tags with an absolute picture, alt text on every picture."""
    assert page.title.strip()
    for key in ("og:title", "og:description", "og:image", "og:url"):
        assert page.meta.get(key), key
    assert page.meta["og:image"].startswith("https://logbook.example.org/")
    for img in page.images:
        assert (img.get("alt") or "").strip(), img


async def test_index_lists_public_servers_only(client: Any) -> None:
    html = await get(client, "/")
    page = Page(html)
    assert "Orbit Club" in html and "Secret Base" not in html
    assert f"/s/{seed.PUBLIC}" in page.links and f"/s/{seed.PRIVATE}" not in page.links
    assert page.lang == "en"
    shareable(page)
    doc = await get_json(client, "/index.json")
    assert doc["schema_version"] == 1
    assert [s["id"] for s in doc["servers"]] == [str(seed.PUBLIC)]
    assert doc["servers"][0]["flights"] == 3  # two flights and the ELITE game


async def test_server_page_in_the_servers_language(client: Any) -> None:
    html = await get(client, f"/s/{seed.PUBLIC}")
    page = Page(html)
    assert page.lang == "ru"  # the server's language setting
    assert "Таблицы рекордов" in html and "Последние полёты" in html
    assert "Orbit Club" in page.title
    for expected in ("S1-2", ">17<", "Hold the pass", ">42<", "Ann", "Bob"):
        assert expected in html, expected
    assert f"/f/{seed.BOARD_FLIGHT}" in page.links and f"/f/{seed.PUBLIC_FLIGHT}" in page.links
    assert f"/p/{seed.ANN}" in page.links
    shareable(page)
    assert page.meta["og:image"].endswith(f"/f/{seed.BOARD_FLIGHT}/overview.png")


async def test_server_json(client: Any) -> None:
    doc = await get_json(client, f"/s/{seed.PUBLIC}.json")
    assert doc["schema_version"] == 1
    assert doc["server"]["name"] == "Orbit Club"
    assert doc["boards"][0]["mission"] == "S1-2" and doc["boards"][0]["places"][0]["total"] == 17
    assert [c["total"] for c in doc["campaigns"]] == [42]
    assert doc["elite"]["games"] == 1 and doc["elite"]["wins"] == {"normal": 1}
    games = {line["game"] for line in doc["latest"]}
    assert games == {"space_alert", "elite"}


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Latest flights"), ("ru", "Последние полёты"), ("cs", "Poslední lety"), ("sk", "Posledné lety")],
)
async def test_every_language(client: Any, lang: str, words: str) -> None:
    html = await get(client, f"/s/{seed.PUBLIC}?lang={lang}")
    page = Page(html)
    assert page.lang == lang and words in html
    # links keep the chosen language
    assert f"/f/{seed.PUBLIC_FLIGHT}?lang={lang}" in page.links
    flight = await get(client, f"/f/{seed.PUBLIC_FLIGHT}?lang={lang}")
    assert Page(flight).lang == lang


async def test_flight_page(client: Any) -> None:
    html = await get(client, f"/f/{seed.PUBLIC_FLIGHT}?lang=en")
    page = Page(html)
    assert "Flight: S1-1" in html and "Orbit Club" in page.title
    assert "Ann" in html and "Bob" in html and "Captain" in html
    assert "Score breakdown" in html and "Threats" in html and "Captain&#39;s log" in html
    assert f"/p/{seed.ANN}?lang=en" in page.links
    shareable(page)
    assert page.meta["og:image"].endswith(f"/f/{seed.PUBLIC_FLIGHT}/overview.png")
    turns = [img["src"] for img in page.images if "/turn/" in str(img["src"])]
    assert turns[0] == f"/f/{seed.PUBLIC_FLIGHT}/turn/0.png?lang=en"  # the viewer starts before turn 1
    assert len(turns) >= 5  # the viewer and each turn of the log
    assert "Turn 1" in html and "The board after turn 1" in html
    doc = await get_json(client, f"/f/{seed.PUBLIC_FLIGHT}.json")
    f = doc["flight"]
    assert doc["schema_version"] == 1 and doc["lang"] == "ru"
    assert [c["name"] for c in f["crew"]] == ["Ann", "Bob"]
    assert f["outcome"] == "destroyed" and f["mission"] == "S1-1"
    assert f["score"]["total"] == 0 and len(f["threats"]) > 0
    assert f["turns"][0]["turn"] == 0 and any(t["log"] for t in f["turns"])
    assert all(t["alt"] for t in f["turns"])


async def test_flight_viewer_steps_without_javascript(client: Any) -> None:
    html = await get(client, f"/f/{seed.PUBLIC_FLIGHT}?lang=en&turn=3")
    assert "<script" not in html
    page = Page(html)
    assert page.images[1]["src"] == f"/f/{seed.PUBLIC_FLIGHT}/turn/3.png?lang=en"
    assert f"/f/{seed.PUBLIC_FLIGHT}?lang=en&turn=2#viewer" in page.links
    assert f"/f/{seed.PUBLIC_FLIGHT}?lang=en&turn=4#viewer" in page.links
    # out of range and nonsense are clamped, not errors
    assert "turn/0.png" in await get(client, f"/f/{seed.PUBLIC_FLIGHT}?turn=x")
    last = Page(await get(client, f"/f/{seed.PUBLIC_FLIGHT}?turn=99"))
    assert re.search(r"/turn/\d+\.png", str(last.images[1]["src"]))


async def test_flight_without_snapshot_shows_its_logged_result(client: Any) -> None:
    html = await get(client, f"/f/{seed.BOARD_FLIGHT}?lang=en")
    assert "cannot be rebuilt" in html and ">17<" in html and "android" in html
    doc = await get_json(client, f"/f/{seed.BOARD_FLIGHT}.json")
    assert doc["flight"]["turns"] == [] and doc["flight"]["overview"] is None
    await get(client, f"/f/{seed.BOARD_FLIGHT}/overview.png", 404)


async def test_pictures_are_drawn_once_and_cached(client: Any) -> None:
    first = await client.get(f"/f/{seed.PUBLIC_FLIGHT}/turn/2.png")
    assert first.status == 200 and first.content_type == "image/png"
    body = await first.read()
    assert body.startswith(PNG)
    assert "immutable" in first.headers["Cache-Control"]
    cache = client.app[REPLAYS]
    drawn = len(cache.pictures)
    again = await client.get(f"/f/{seed.PUBLIC_FLIGHT}/turn/2.png")
    assert await again.read() == body and len(cache.pictures) == drawn
    overview = await client.get(f"/f/{seed.PUBLIC_FLIGHT}/overview.png?lang=cs")
    assert overview.status == 200 and (await overview.read()).startswith(PNG)
    await get(client, f"/f/{seed.PUBLIC_FLIGHT}/turn/99.png", 404)


async def test_player_career_counts_public_servers_only(client: Any) -> None:
    html = await get(client, f"/p/{seed.ANN}")
    assert "Ann" in html and "Orbit Club" in html and "Secret Base" not in html
    shareable(Page(html))
    doc = await get_json(client, f"/p/{seed.ANN}.json")
    assert doc["schema_version"] == 1
    assert doc["player"]["flights"] == 1  # her flight on the private server is not counted
    assert [s["id"] for s in doc["servers"]] == [str(seed.PUBLIC)]
    assert [line["flight_id"] for line in doc["flights"]] == [seed.PUBLIC_FLIGHT]
    # the JSON keeps its names for the server's count of games (PublicServer.games on the platform)
    (server,) = doc["servers"]
    assert (server["flights"], server["server_flights"]) == (1, 3)  # hers there, and every game there


@pytest.mark.parametrize(
    "path",
    [
        f"/s/{seed.PRIVATE}",
        f"/s/{seed.PRIVATE}.json",
        f"/f/{seed.PRIVATE_FLIGHT}",
        f"/f/{seed.PRIVATE_FLIGHT}.json",
        f"/f/{seed.PRIVATE_FLIGHT}/turn/1.png",
        f"/f/{seed.PRIVATE_FLIGHT}/overview.png",
        f"/p/{seed.CID}",  # flew only on the private server
        f"/p/{seed.CID}.json",
        "/s/999",
        "/f/00000000",
        "/p/999",
        "/s/not-a-number",
        "/nowhere",
        "/f/../../etc/passwd",
    ],
)
async def test_private_and_unknown_are_404(client: Any, path: str) -> None:
    response = await client.get(path)
    assert response.status == 404
    text = await response.text()
    assert "Secret Base" not in text and "Cid" not in text


async def test_404_page_is_a_page(client: Any) -> None:
    html = await get(client, f"/f/{seed.PRIVATE_FLIGHT}?lang=cs", 404)
    assert "Nenalezeno" in html and Page(html).lang == "cs"
    doc = await get_json(client, f"/s/{seed.PRIVATE}.json", 404)
    assert doc == {"schema_version": 1, "error": "not found"}


async def test_turning_public_boards_off_hides_everything(client: Any, seeded: Any) -> None:
    await get(client, f"/f/{seed.PUBLIC_FLIGHT}")
    await seeded.set_setting(seed.PUBLIC, "leaderboard", "private")
    hidden = (f"/s/{seed.PUBLIC}", f"/f/{seed.PUBLIC_FLIGHT}", f"/p/{seed.ANN}", f"/f/{seed.PUBLIC_FLIGHT}/turn/1.png")
    for path in hidden:
        assert (await client.get(path)).status == 404, path
    assert (await get_json(client, "/index.json"))["servers"] == []


async def test_security_headers_and_static(client: Any) -> None:
    response = await client.get("/")
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    css = await client.get("/static/style.css")
    assert css.status == 200 and "--ink" in await css.text()
    assert css.headers["Cache-Control"] == "public, max-age=3600"
    card = await client.get("/static/card.png")
    assert card.status == 200 and (await card.read()).startswith(PNG)


async def test_names_are_escaped(client: Any, seeded: Any) -> None:
    await seeded.set_setting(seed.PUBLIC, "public_name", "<script>alert(1)</script>")
    html = await get(client, "/")
    assert "<script>" not in html and "&lt;script&gt;" in html


async def test_random_missions_board_and_line(client: Any, seeded: Any) -> None:

    result = {"outcome": "survived", "threats": [], "score": {"total": 5}}
    crew = [LogbookCrew(name="Ann", user_id=seed.ANN)]
    flown = "2026-11-22T20:00:00+00:00"
    line = seed.entry(
        "5eed5eed", seed.PUBLIC, "random", ("yellow", "yellow"), result, crew=crew, seed=77, flown_at=flown
    )
    await Logbook(seeded).add(line)
    html = await get(client, f"/s/{seed.PUBLIC}?lang=en")
    assert "random (seed 77)" in html  # the line names its seed; the board is every random flight
    doc = await get_json(client, f"/s/{seed.PUBLIC}.json")
    assert any(b["mission"] == "random" for b in doc["boards"])
