"""The web logbook's aiohttp application: routes, language choice, templates, pictures.

Read-only over the bot's store.  Routes (links and outside checks depend on them, keep them):
`/` the public servers, `/s/<server id>`, `/f/<flight id>`, `/p/<player id>`, each with a `.json`
twin carrying `schema_version`; pictures live under their flight (`/f/<id>/turn/<n>.png`,
`/f/<id>/overview.png`).  Anything unknown or private answers 404, the same page for both so a
private server's existence does not leak.  No JavaScript: the turn viewer steps with links.
"""

from __future__ import annotations

import gc
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from importlib import resources
from typing import Any
from urllib.parse import urlencode

import aiohttp_jinja2
import jinja2
from aiohttp import web

from bot.games.space_alert.records import games as session_games
from bot.games.space_alert.records.public import PublicLogbook
from bot.platform.i18n import t
from bot.platform.storage.web import WebStore
from bot.web import views
from bot.web.labels import Labels
from bot.web.replays import Replays

log = logging.getLogger(__name__)

STORE: web.AppKey[WebStore] = web.AppKey("store", WebStore)
REPLAYS: web.AppKey[Replays] = web.AppKey("replays", Replays)
OPTIONS: web.AppKey[dict[str, Any]] = web.AppKey("options", dict)
GAME_NAMES = {
    "space_alert": "Space Alert",
    "elite": "Project: ELITE",
    "legion": "Scarlet Legion",
    "escape": "Star World: Escape",
}  # names, not words: never translated
LANG_NAMES = {"en": "English", "ru": "Русский", "cs": "Čeština", "sk": "Slovenčina"}
# pages of finished flights never change; lists change with every flight
IMMUTABLE = "public, max-age=86400, immutable"
SHORT = "public, max-age=60"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; img-src 'self'; style-src 'self'; base-uri 'none';"
    " form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
_ID = r"{fid:[A-Za-z0-9_-]{1,40}}"
_NUM = r"{num:[0-9]{1,20}}"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _asked_lang(request: web.Request) -> str | None:
    lang = request.query.get("lang", "").strip().lower()
    return lang if lang in views.LANGS else None


def _default_lang(request: web.Request) -> str:
    return str(request.app[OPTIONS].get("default_language", "en"))


def _base_url(request: web.Request) -> str:
    """The address players reach us at: WEB_BASE_URL, else what the request says (a reverse proxy
    passes Host and X-Forwarded-Proto)."""
    base = request.app[OPTIONS].get("base_url")
    if base:
        return str(base).rstrip("/")
    scheme = request.headers.get("X-Forwarded-Proto", request.scheme).split(",")[0].strip() or "http"
    return f"{scheme}://{request.host}"


def _json(doc: dict[str, Any], cache: str = SHORT) -> web.Response:
    return web.json_response(
        doc, dumps=lambda d: json.dumps(d, ensure_ascii=False, separators=(",", ":")), headers={"Cache-Control": cache}
    )


def _page(request: web.Request, template: str, doc: dict[str, Any], og: dict[str, str], **extra: Any) -> web.Response:
    lang = str(doc["lang"])
    asked = _asked_lang(request)
    base = _base_url(request)

    keep = f"?lang={asked}" if asked else ""

    def link(path: str | None, **params: Any) -> str:
        """A link that keeps an explicitly chosen language."""
        if path is None:
            return ""
        if not params:
            return path + keep
        query = {**({"lang": asked} if asked else {}), **{k: v for k, v in params.items() if v is not None}}
        return path + ("?" + urlencode(query) if query else "")

    def lang_link(code: str) -> str:
        query = {**request.query, "lang": code}
        return request.path + "?" + urlencode(query)

    context = {
        **extra,
        "doc": doc,
        "lang": lang,
        "_": lambda key, **kw: t(lang, key, **kw),
        "link": link,
        "L": Labels(lang, link),
        "lang_link": lang_link,
        "languages": LANG_NAMES,
        "games": GAME_NAMES,
        "request_path": request.path,
        "json_url": request.path + ".json" if request.path != "/" else "/index.json",
        "og": {**og, "url": base + request.path, "image": base + og.get("image", "/static/card.png")},
    }
    response = aiohttp_jinja2.render_template(template, request, context)
    response.headers["Content-Language"] = lang
    response.headers["Cache-Control"] = SHORT
    return response


def server_name(lang: str, server: dict[str, Any]) -> str:
    return str(server.get("name") or t(lang, "web.server.unnamed", id=server["id"]))


# -- the page cache -------------------------------------------------------------------------------
class Pages:
    """Finished response bodies keyed by (the request's path and query, the base URL its links
    use, the version of the data it shows), at most `limit` bytes, least recently used first out.

    Why keyed by a version and never by time: a page must not show stale data.  Each handler first
    reads a small version of what its page shows (a server's newest logbook row and campaign
    versions with its settings, a flight's server and newest comparison, a player's newest flight
    and servers: one read by primary keys and indexes, the privacy check included) and only a miss
    builds the page.  The version is read before the page, so a page kept under a version holds data at
    least that new: a change in between makes the next request miss, never a stale hit.  Bodies
    are bytes, which the garbage collector never scans, so a full cache costs no collection time."""

    def __init__(self, limit: int = 64 << 20) -> None:
        self.limit = limit
        self.size = 0
        self._items: OrderedDict[Hashable, tuple[bytes, str, str | None]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> tuple[bytes, str, str | None] | None:
        found = self._items.get(key)
        if found is None:
            self.misses += 1
            return None
        self._items.move_to_end(key)
        self.hits += 1
        return found

    def put(self, key: Hashable, body: bytes, content_type: str, language: str | None) -> None:
        if len(body) > self.limit // 8:  # one huge page must not empty the cache
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old[0])
        self._items[key] = (body, content_type, language)
        self.size += len(body)
        while self.size > self.limit and self._items:
            _key, (dropped, _ct, _lang) = self._items.popitem(last=False)
            self.size -= len(dropped)

    def clear(self) -> None:
        self._items.clear()
        self.size = 0

    def __len__(self) -> int:
        return len(self._items)


PAGES: web.AppKey[Pages] = web.AppKey("pages", Pages)


def _cache_key(request: web.Request, version: Hashable) -> Hashable:
    return (request.path_qs, _base_url(request), _default_lang(request), version)


def _from_cache(request: web.Request, key: Hashable) -> web.Response | None:
    found = request.app[PAGES].get(key)
    if found is None:
        return None
    body, content_type, language = found
    response = web.Response(body=body, headers={"Cache-Control": SHORT})
    response.content_type = content_type
    response.charset = "utf-8"
    if language:
        response.headers["Content-Language"] = language
    return response


def _keep(request: web.Request, key: Hashable, response: web.Response) -> web.Response:
    body = response.body
    if response.status == 200 and isinstance(body, bytes):
        request.app[PAGES].put(key, body, response.content_type, response.headers.get("Content-Language"))
    return response


# -- handlers -------------------------------------------------------------------------------------
async def index(request: web.Request) -> web.Response:
    lang = _asked_lang(request) or _default_lang(request)
    marks = await request.app[STORE].public_marks()
    key = _cache_key(request, ("index", tuple(marks)))
    cached = _from_cache(request, key)
    if cached is not None:
        return cached
    doc = await views.index_page(request.app[STORE], lang)
    if request.path.endswith(".json"):
        return _keep(request, key, _json(doc))
    og = {"title": t(lang, "web.site_title"), "description": t(lang, "web.index.intro")}
    return _keep(request, key, _page(request, "index.html", doc, og))


async def server(request: web.Request) -> web.Response:
    guild_id = int(request.match_info["num"])
    found = await request.app[STORE].public_marks([guild_id], result_games=session_games.GAMES)
    if not found:
        raise web.HTTPNotFound()
    key = _cache_key(request, ("server", found[0]))
    cached = _from_cache(request, key)
    if cached is not None:
        return cached
    return _keep(request, key, await _server(request, guild_id))


async def _server(request: web.Request, guild_id: int) -> web.Response:
    doc = await views.server_page(request.app[STORE], guild_id, _asked_lang(request), _default_lang(request))
    if doc is None:
        raise web.HTTPNotFound()
    if request.path.endswith(".json"):
        return _json(doc)
    lang = doc["lang"]
    name = server_name(lang, doc["server"])
    og = {"title": name, "description": t(lang, "web.server.description", n=doc["server"]["flights"], name=name)}
    best = next((p for b in doc["boards"] for p in b["places"] if p["flight_id"]), None)
    if best:
        og["image"] = f"/f/{best['flight_id']}/overview.png"
    return _page(request, "server.html", doc, og, server_name=name)


def _turn_index(request: web.Request, turns: int) -> int:
    try:
        wanted = int(request.query.get("turn", "0"))
    except ValueError:
        wanted = 0
    return max(0, min(wanted, turns - 1)) if turns else 0


async def flight(request: web.Request) -> web.Response:
    fid = request.match_info["fid"]
    store = request.app[STORE]
    mark = await PublicLogbook(store).flight_mark(fid)
    if mark is None:
        raise web.HTTPNotFound()
    key = _cache_key(request, ("flight", mark))
    cached = _from_cache(request, key)
    if cached is not None:
        return cached
    return _keep(request, key, await _flight(request, fid))


async def _flight(request: web.Request, fid: str) -> web.Response:
    doc = await views.flight_page(
        request.app[STORE], request.app[REPLAYS], fid, _asked_lang(request), _default_lang(request)
    )
    if doc is None:
        raise web.HTTPNotFound()
    if request.path.endswith(".json"):
        return _json(doc)
    lang = doc["lang"]
    f = doc["flight"]
    outcome = t(lang, f"outcome.{f['outcome']}")
    crew = ", ".join(c["name"] for c in f["crew"] if c["player_id"])
    og = {
        "title": t(lang, "web.flight.title", mission=mission_text(lang, f), server=server_name(lang, doc["server"])),
        "description": t(lang, "web.flight.description", outcome=outcome, total=f["total"], crew=crew or "—"),
    }
    if f["overview"]:
        og["image"] = f["overview"]
    current = _turn_index(request, len(f["turns"]))
    return _page(request, "flight.html", doc, og, server_name=server_name(lang, doc["server"]), current=current)


async def player(request: web.Request) -> web.Response:
    user_id = int(request.match_info["num"])
    store = request.app[STORE]
    mark = await PublicLogbook(store).player_mark(user_id)
    if mark is None:
        raise web.HTTPNotFound()
    key = _cache_key(request, ("player", mark))
    cached = _from_cache(request, key)
    if cached is not None:
        return cached
    return _keep(request, key, await _player(request, user_id))


async def _player(request: web.Request, user_id: int) -> web.Response:
    lang = _asked_lang(request) or _default_lang(request)
    doc = await views.player_page(request.app[STORE], user_id, lang)
    if doc is None:
        raise web.HTTPNotFound()
    if request.path.endswith(".json"):
        return _json(doc)
    p = doc["player"]
    og = {
        "title": t(lang, "web.player.title", name=p["name"]),
        "description": t(lang, "web.player.summary", flights=p["flights"], survived=p["survived"], points=p["points"]),
    }
    return _page(request, "player.html", doc, og)


async def picture(request: web.Request) -> web.Response:
    """A turn's board or the overview, drawn by bot/games/space_alert/pictures in the page's language."""
    fid = request.match_info["fid"]
    which = request.match_info.get("n", "overview")
    store = request.app[STORE]
    found = await PublicLogbook(store).public_flight(fid)
    entry, record = found if found is not None else (None, None)
    if entry is None or record is None:
        raise web.HTTPNotFound()
    server_doc = await store.public_server(entry.guild_id)
    lang = views.page_language(_asked_lang(request), server_doc, _default_lang(request))
    png = await request.app[REPLAYS].picture(record, which, lang)
    if png is None:
        raise web.HTTPNotFound()
    return web.Response(body=png, content_type="image/png", headers={"Cache-Control": IMMUTABLE})


async def favicon(_request: web.Request) -> web.Response:
    """Browsers ask for /favicon.ico whatever the page says."""
    raise web.HTTPMovedPermanently("/static/favicon.png")


def mission_text(lang: str, line: dict[str, Any]) -> str:
    if line["mission"] == "random" and line.get("seed") is not None:
        return t(lang, "mission.random", seed=line["seed"])
    return str(line["mission"])


# -- the application ------------------------------------------------------------------------------
@web.middleware
async def pages_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Security headers on everything; a 404 page (the same for unknown and private) in the
    language asked for; an unexpected error logged and answered 500 without a traceback."""
    try:
        response = await handler(request)
    except web.HTTPNotFound:
        response = not_found(request)
    except web.HTTPException as exc:
        response = exc
    except Exception:
        log.exception("web page %s failed", request.path)
        response = web.Response(status=500, text="500: the page failed; it has been logged", content_type="text/plain")
    response.headers.update(SECURITY_HEADERS)
    if request.path.startswith("/static/") and response.status == 200:
        response.headers["Cache-Control"] = "public, max-age=3600"
    return response


def not_found(request: web.Request) -> web.Response:
    lang = _asked_lang(request) or _default_lang(request)
    if request.path.endswith(".json"):
        return web.json_response({"schema_version": views.SCHEMA_VERSION, "error": "not found"}, status=404)
    if request.path.endswith(".png"):
        return web.Response(status=404, text="not found", content_type="text/plain")
    doc = {"lang": lang}
    og = {"title": t(lang, "web.notfound.title"), "description": t(lang, "web.notfound.text")}
    response = _page(request, "notfound.html", doc, og)
    response.set_status(404)
    response.headers["Cache-Control"] = "no-store"
    return response


def _jinja_env_options() -> dict[str, Any]:
    return {
        "autoescape": jinja2.select_autoescape(["html"], default=True),
        "trim_blocks": True,
        "lstrip_blocks": True,
        "auto_reload": False,
        "undefined": jinja2.StrictUndefined,
    }


def make_app(
    store: WebStore,
    *,
    default_language: str = "en",
    base_url: str | None = None,
    replays: Replays | None = None,
    pages: Pages | None = None,
) -> web.Application:
    """The web logbook over `store` (the bot's Storage, or one opened for the web alone)."""
    app = web.Application(middlewares=[pages_middleware])
    app[STORE] = store
    app[REPLAYS] = replays or Replays()
    app[PAGES] = pages or Pages()
    app[OPTIONS] = {"default_language": default_language, "base_url": base_url}
    aiohttp_jinja2.setup(app, loader=jinja2.PackageLoader("bot.web", "templates"), **_jinja_env_options())
    app.router.add_get("/", index)
    app.router.add_get("/index.json", index)
    app.router.add_get(f"/s/{_NUM}.json", server)
    app.router.add_get(f"/s/{_NUM}", server)
    app.router.add_get(f"/f/{_ID}.json", flight)
    app.router.add_get(f"/f/{_ID}", flight)
    app.router.add_get(f"/f/{_ID}/turn/{{n:[0-9]{{1,2}}}}.png", picture)
    app.router.add_get(f"/f/{_ID}/overview.png", picture)
    app.router.add_get(f"/p/{_NUM}.json", player)
    app.router.add_get(f"/p/{_NUM}", player)
    static = resources.files("bot.web").joinpath("static")
    app.router.add_static("/static/", path=str(static), append_version=False)
    app.router.add_get("/favicon.ico", favicon)
    return app


def settle_memory() -> None:
    """Collect once, then exempt everything alive from later full collections (gc.freeze).

    Why: the process has imported discord.py, pydantic, Pillow, Jinja2 and the engine, some 70,000
    long-lived objects, and CPython's full collection walks all of them: bench/web.py measured
    40-130 ms per full collection on one core, landing on whichever request was running, which
    was the whole of the pages' p99 (a server page's median is a few ms).  Frozen, a full
    collection walks only what came later (caches and requests): a few ms."""
    gc.collect()
    gc.freeze()


async def start_site(app: web.Application, host: str, port: int) -> web.AppRunner:
    """Serve `app` on host:port inside the running event loop (the bot's, or bot.web's own)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    settle_memory()
    log.info("web logbook on http://%s:%s/", host, port)
    return runner
