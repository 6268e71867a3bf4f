"""The bot fixtures of tests/bot, for the fuzz tests that drive the bot's handlers."""

from tests.bot.conftest import bot, clock, world

__all__ = ["bot", "clock", "world"]
