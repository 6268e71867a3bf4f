"""A slash command as players type it, built from the bot's own command tree.

Why from the tree: a message that teaches a command ("start it with `/mission start ...`") must
name options that exist.  Written by hand it drifted (the campaign taught `normal:`, the option is
`normal_threats:`); read from the tree, a renamed option makes `command_line` raise, and the tests
that print each such message fail instead of a player's copy-paste.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands


class UnknownCommand(LookupError):
    """The tree has no such command or option: a message would teach something that fails."""


def find_command(tree: app_commands.CommandTree[Any], qualified: str) -> app_commands.Command[Any, ..., Any]:
    """The command called `qualified` ("mission start", "campaign end", "help")."""
    words = qualified.split()
    found: Any = tree.get_command(words[0]) if words else None
    for word in words[1:]:
        found = found.get_command(word) if isinstance(found, app_commands.Group) else None
    if not isinstance(found, app_commands.Command):
        raise UnknownCommand(f"no command /{qualified}")
    return found


def command_line(tree: app_commands.CommandTree[Any], qualified: str, /, **values: Any) -> str:
    """ "`/mission start mission:S2-5 normal_threats:white`": the command with `values` in the
    order the command lists its options (None values are left out), in inline code.

    `values` are keyed by the option's Python name; the line prints the name Discord shows (an
    `@app_commands.rename`d `json_text` is typed as `json:`)."""
    command = find_command(tree, qualified)
    shown = {param.name: param.display_name for param in command.parameters}
    unknown = sorted(set(values) - set(shown))
    if unknown:
        raise UnknownCommand(f"/{qualified} has no option {', '.join(unknown)}")
    parts = [f"/{command.qualified_name}"]
    parts += [f"{shown[name]}:{values[name]}" for name in shown if values.get(name) is not None]
    return "`" + " ".join(parts) + "`"


def bare(tree: app_commands.CommandTree[Any], qualified: str) -> str:
    """ "`/campaign status`": a command without options, checked against the tree."""
    return command_line(tree, qualified)
