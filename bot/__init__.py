"""Discord adapter: cogs, views, embeds, i18n and storage wiring. The only package that talks to Discord."""
