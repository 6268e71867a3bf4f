"""The games the platform hosts; each registers itself and adds only what is its own.

The platform loads the extensions listed here (its `GAMES_PACKAGE` setting names this package) and
never imports a game itself: a game's `setup()` adds its cogs, its component handlers
(`bot.add_dynamic_items`) and its permission declarations.  Order matters only where one game's
extension reads another's at setup: the flight comes before what builds on it."""

EXTENSIONS: tuple[str, ...] = (
    "bot.games.space_alert.mission",
    "bot.games.space_alert.records",
    "bot.games.space_alert.replay",
    "bot.games.space_alert.hindsight",
    "bot.games.space_alert.stats",
    "bot.games.space_alert.campaign",
    "bot.games.elite",
    "bot.games.legion",
    "bot.games.escape",
)
