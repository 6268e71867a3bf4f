"""Command line: `python -m engine resolve GAME.json [--log]` and `python -m engine timeline ...`.

Invalid input exits 2 with one line on stderr naming the field; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pydantic import ValidationError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, as for every invalid input
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _field_path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("function-after", "function-before") or str(part).startswith("function-"):
            continue
        else:
            out += ("." if out else "") + str(part)
    return out or "game"


def validation_message(err: ValidationError) -> str:
    first = err.errors()[0]
    msg = first["msg"].removeprefix("Value error, ")
    return f"invalid game: {_field_path(first['loc'])}: {msg}"


def _resolve(args: argparse.Namespace) -> int:
    from engine.model import Game
    from engine.resolution.mission import resolve

    try:
        if args.game == "-":
            text = sys.stdin.read()
        else:
            with open(args.game, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as exc:
        print(f"error: cannot read {args.game}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"invalid game: malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}", file=sys.stderr)
        return 2
    try:
        game = Game.model_validate(raw)
    except ValidationError as exc:
        print(validation_message(exc), file=sys.stderr)
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
