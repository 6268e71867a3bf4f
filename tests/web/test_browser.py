"""The web logbook in a real Chromium (Debian's `chromium`, driven by Playwright; never a
downloaded browser): open the index, a server, a flight, step through the turn pictures with
JavaScript switched off, switch language.  Screenshots are compared with golden images with a
tolerance (font rasterising differs a little between versions; a layout change does not pass),
and no page may log a console error or fail a request.

Skipped, saying why, where /usr/bin/chromium or the playwright package is missing (CI installs
both: .ci/run and `make system-deps` install chromium, the test extras playwright).
Regenerate the goldens after an intended change: `UPDATE_GOLDEN=1 pytest tests/web/test_browser.py`.
"""

from __future__ import annotations

import io
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from PIL import Image, ImageChops, ImageStat

from bot.platform.storage import SqliteStorage
from bot.web.app import make_app
from tests.web import seed

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
GOLDEN = Path(__file__).parent / "golden"
VIEWPORT = {"width": 1000, "height": 900}

try:
    from playwright.async_api import Browser, Page, async_playwright
except ImportError:  # pragma: no cover - the test extras install it
    async_playwright = None  # type: ignore[assignment]

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium here (apt-get install chromium)"),
    pytest.mark.skipif(
        async_playwright is None, reason="the playwright package is not installed (pip install -e '.[test]')"
    ),
]


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[str]:
    store = SqliteStorage(tmp_path / "sa.sqlite3")
    await store.open()
    await seed.fill(store)
    server = TestServer(make_app(store, default_language="en"), host="127.0.0.1")
    await server.start_server()
    try:
        yield str(server.make_url("")).rstrip("/")
    finally:
        await server.close()
        await store.close()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        instance = await p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield instance
        finally:
            await instance.close()


class Watched:
    """A page whose console errors, page errors and failed requests are collected."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda msg: self.problems.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))
        page.on("requestfailed", lambda req: self.problems.append(f"failed: {req.url}"))
        page.on("response", lambda r: self.problems.append(f"{r.status}: {r.url}") if r.status >= 400 else None)


async def open_page(browser: Browser, *, javascript: bool = True) -> Watched:
    context = await browser.new_context(viewport=VIEWPORT, device_scale_factor=1, java_script_enabled=javascript)
    return Watched(await context.new_page())


async def image_loaded(page: Page, selector: str) -> bool:
    return bool(await page.locator(selector).evaluate("img => img.complete && img.naturalWidth > 0"))


async def compare(page: Page, name: str, mask: list[Any] | None = None) -> None:
    """The viewport against golden/<name>: mean difference under 1.5 and under 1 % of the pixels
    changed by more than a shade."""
    shot = await page.screenshot(mask=mask or [], animations="disabled")
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(shot)
        if not os.environ.get("UPDATE_GOLDEN"):
            pytest.fail(f"{name}: no golden image yet; wrote one, check it and commit it")
    got = Image.open(io.BytesIO(shot)).convert("RGB")
    golden = Image.open(path).convert("RGB")
    assert got.size == golden.size, f"{name}: {got.size} != {golden.size}"
    diff = ImageChops.difference(got, golden)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda px: 255 if px > 48 else 0).histogram()[255] / (got.width * got.height)
    assert mean < 1.5 and changed < 0.01, f"{name}: mean diff {mean:.2f}, {changed:.2%} pixels changed"


async def test_index_then_a_server(site: str, browser: Browser) -> None:
    w = await open_page(browser)
    page = w.page
    await page.goto(site + "/")
    assert await page.title() == "Space Alert logbook · Space Alert logbook"
    # the last flight's date is today's (the ELITE game is logged now): masked
    await compare(page, "index.png", mask=[page.locator("td:nth-child(3)")])
    await page.get_by_role("link", name="Orbit Club").click()
    await page.wait_for_load_state()
    assert page.url == f"{site}/s/{seed.PUBLIC}"
    assert await page.get_attribute("html", "lang") == "ru"  # the server's language
    assert await page.get_by_role("heading", level=1).inner_text() == "Orbit Club"
    await compare(page, "server_ru.png", mask=[page.locator("#latest td:first-child")])
    assert w.problems == []


async def test_a_flight_steps_through_its_turns_without_javascript(site: str, browser: Browser) -> None:
    w = await open_page(browser, javascript=False)
    page = w.page
    await page.goto(f"{site}/s/{seed.PUBLIC}?lang=en")
    await page.locator(f"#latest a[href^='/f/{seed.PUBLIC_FLIGHT}']").click()
    await page.wait_for_load_state("load")
    assert page.url == f"{site}/f/{seed.PUBLIC_FLIGHT}?lang=en"
    assert await page.get_by_role("heading", level=1).inner_text() == "Flight: S1-1"
    assert await image_loaded(page, "#turn-picture")
    alt = await page.locator("#turn-picture").get_attribute("alt")
    assert alt == "The board before turn 1; damage: red 0, white 0, blue 0; shields red, white, blue: 1, 1, 1."
    seen = []
    for step in range(1, 4):
        await page.locator("#next-turn").click()
        await page.wait_for_load_state("load")
        src = await page.locator("#turn-picture").get_attribute("src")
        assert src == f"/f/{seed.PUBLIC_FLIGHT}/turn/{step}.png?lang=en"
        assert await image_loaded(page, "#turn-picture")
        alt = await page.locator("#turn-picture").get_attribute("alt")
        assert alt and alt.startswith(f"The board after turn {step}")
        seen.append(alt)
    assert len(set(seen)) == 3  # each turn's picture is described in words of its own
    await page.locator("#viewer").scroll_into_view_if_needed()
    await compare(page, "flight_turn3.png")
    await page.locator("#prev-turn").click()
    await page.wait_for_load_state("load")
    assert (await page.locator("#turn-picture").get_attribute("src") or "").endswith("/turn/2.png?lang=en")
    # every picture on the page carries alt text and loads (the log's thumbnails are lazy)
    images = page.locator("img")
    for i in range(await images.count()):
        img = images.nth(i)
        assert (await img.get_attribute("alt") or "").strip()
        await img.scroll_into_view_if_needed()
        assert await img.evaluate("img => img.complete && img.naturalWidth > 0") or await img.evaluate(
            "img => new Promise(r => img.onload = () => r(img.naturalWidth > 0))"
        )
    assert w.problems == []


async def test_switching_language(site: str, browser: Browser) -> None:
    w = await open_page(browser)
    page = w.page
    await page.goto(f"{site}/f/{seed.PUBLIC_FLIGHT}?lang=en&turn=1")
    assert await page.get_attribute("html", "lang") == "en"
    nav = page.get_by_role("navigation", name="Language")
    await nav.get_by_role("link", name="Čeština").click()
    await page.wait_for_load_state("load")
    assert await page.get_attribute("html", "lang") == "cs"
    assert page.url.endswith(f"/f/{seed.PUBLIC_FLIGHT}?lang=cs&turn=1")
    assert await page.get_by_role("heading", level=1).inner_text() == "Let: S1-1"
    assert await page.get_by_role("heading", name="Lodní deník").count() == 1
    assert await image_loaded(page, "#turn-picture")
    await compare(page, "flight_cs.png")
    for code, heading in (("sk", "Let: S1-1"), ("ru", "Полёт: S1-1"), ("en", "Flight: S1-1")):
        await page.get_by_role("navigation").locator(f"a[hreflang='{code}']").click()
        await page.wait_for_load_state("load")
        assert await page.get_by_role("heading", level=1).inner_text() == heading
    assert w.problems == []


async def test_a_private_flight_is_not_found_in_the_browser(site: str, browser: Browser) -> None:
    w = await open_page(browser)
    response = await w.page.goto(f"{site}/f/{seed.PRIVATE_FLIGHT}")
    assert response is not None and response.status == 404
    assert await w.page.get_by_role("heading", level=1).inner_text() == "Not found"
    assert "Secret Base" not in await w.page.content()


async def test_the_what_if_comparisons_asked_for(site: str, browser: Browser, tmp_path: Path) -> None:
    from bot.games.space_alert.comparisons import Comparisons
    from tests.web.test_comparisons import HINDSIGHT, WHATIF

    writer = SqliteStorage(tmp_path / "sa.sqlite3")  # the site's store: a second process's handle
    await writer.open()
    try:
        await Comparisons(writer).add(WHATIF)
        await Comparisons(writer).add(HINDSIGHT)
    finally:
        await writer.close()
    w = await open_page(browser, javascript=False)
    page = w.page
    await page.goto(f"{site}/f/{seed.PUBLIC_FLIGHT}?lang=sk")
    await page.wait_for_load_state("networkidle")  # leaving while pictures load would abort them
    section = page.locator("#whatifs")
    assert await section.get_by_role("heading", level=2).inner_text() == "Porovnania „čo keby“"
    rows = section.locator("tbody tr")
    assert await rows.count() == 2
    assert "kolo 5:" in await rows.nth(0).inner_text() and "+21" in await rows.nth(0).inner_text()
    assert "spätne" in await rows.nth(1).inner_text() and "+9" in await rows.nth(1).inner_text()
    # the asker's name leads to their career (not followed: leaving aborts the favicon's request)
    assert await section.locator("a").first.get_attribute("href") == f"/p/{seed.ANN}?lang=sk"
    await page.locator("#whatifs").scroll_into_view_if_needed()
    await compare(page, "flight_whatifs_sk.png")
    assert w.problems == []
