"""The logbook on the web: public servers' boards, careers and every flight's captain's log.

A read-only aiohttp application over the bot's own store (bot/platform/storage/web.py holds its queries),
with server-side Jinja2 templates and no JavaScript.  `python -m bot.web` serves it alone; the
bot process serves it too when WEB_PORT is set (bot/__main__.py).

Nothing is imported here: the bot imports `bot.web.links` on every flight, and must not pull in
the templates and the application for that (bot.web.app is imported where it is served).
"""
