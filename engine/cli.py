"""Command line: `python -m engine resolve GAME.json [--log]`, `python -m engine hindsight GAME.json
[--max-changes 1|2] [--budget-s S]` and `python -m engine timeline ...`.

Invalid input exits 2 with one line on stderr naming the field; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from engine.model import Game


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, as for every invalid input
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _read_game(source: str) -> bytes:
    """The raw GAME.json: stdin or a file, refused by size before it is read whole."""
    from engine.documents import MAX_GAME_BYTES
    from engine.flight.timeline import read_capped

    if source == "-":
        return sys.stdin.buffer.read(MAX_GAME_BYTES + 1)
    return read_capped(source, MAX_GAME_BYTES)


def _load_game(source: str) -> Game | None:
    """The validated GAME.json, or None after printing the one error line (exit 2)."""
    from engine.documents import DocumentError, parse_game

    try:
        raw = _read_game(source)
    except DocumentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    try:
        return parse_game(raw)
    except DocumentError as exc:
        print(f"invalid game: {exc}", file=sys.stderr)
        return None


def _resolve(args: argparse.Namespace) -> int:
    from engine.resolution.mission import resolve

    game = _load_game(args.game)
    if game is None:
        return 2
    result = resolve(game, log=args.log)
    data = result.to_json_dict(with_log=args.log)
    if args.log:
        _in_words(data["log"])
    json.dump(data, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _in_words(log: list[dict[str, Any]]) -> None:
    """Each entry's `text` in English words, as the command line has always printed it.

    Why here: the engine holds no words (its `text` is the event in codes), but this command is how
    players of the physical game read a resolution, so its output stays readable.  The words are the
    catalogue's, rendered by the bot's captain's log; the command line is the one edge of the engine
    allowed to look for them, and without the bot package installed it prints the codes."""
    try:
        from bot.games.space_alert.mission._log_i18n import describe
    except ImportError:  # the engine alone: the codes are the text
        return
    for entry in log:
        entry["text"] = describe("en", entry)


def _hindsight(args: argparse.Namespace) -> int:
    """The smallest plan change that would have saved the ship (engine.hindsight): the clock is
    read here, not in the engine, for `--budget-s`."""
    from engine.hindsight import hindsight

    game = _load_game(args.game)
    if game is None:
        return 2
    deadline = time.monotonic() + args.budget_s
    answer = hindsight(game, max_changes=args.max_changes, time_up=lambda: time.monotonic() >= deadline)
    json.dump(answer.to_json(), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value!r}") from None
    if not 0 < seconds <= 600:
        raise argparse.ArgumentTypeError(f"between 0 and 600 seconds, got {value}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "timeline":
        from engine.flight.timeline_cli import main as timeline_main

        return timeline_main(argv[1:])
    parser = _Parser(prog="python -m engine", description="Space Alert rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    res = sub.add_parser("resolve", help="resolve a mission given as GAME.json ('-' for stdin)")
    res.add_argument("game")
    res.add_argument("--log", action="store_true", help="add the turn-by-turn event log")
    sub.add_parser("timeline", help="print a mission timeline (see 'timeline --help')")
    hs = sub.add_parser("hindsight", help="the smallest plan change that would have saved the ship")
    hs.add_argument("game")
    hs.add_argument("--max-changes", type=int, choices=(1, 2), default=1, help="search one change, or two")
    hs.add_argument(
        "--budget-s", type=_seconds, default=5.0, help="time for the two-change search (seconds, default 5)"
    )
    args = parser.parse_args(argv)
    if args.command == "hindsight":
        return _hindsight(args)
    return _resolve(args)
