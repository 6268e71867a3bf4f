"""Command line: `python -m engine resolve GAME.json [--log]` and `python -m engine timeline ...`.

Invalid input exits 2 with one line on stderr naming the field; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn


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


def _resolve(args: argparse.Namespace) -> int:
    from engine.documents import DocumentError, parse_game
    from engine.resolution.mission import resolve

    try:
        raw = _read_game(args.game)
    except DocumentError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        game = parse_game(raw)
    except DocumentError as exc:
        print(f"invalid game: {exc}", file=sys.stderr)
        return 2
    result = resolve(game, log=args.log)
    json.dump(result.to_json_dict(with_log=args.log), sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


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
    args = parser.parse_args(argv)
    return _resolve(args)
