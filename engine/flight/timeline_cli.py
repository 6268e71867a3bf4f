"""`python -m engine timeline ...`: print a mission timeline as JSON, or as the spoken script.

    timeline S2-1 [--lang ru] [--text]
    timeline --file custom.json [--text]              validate a custom mission and print it
    timeline --generate --seed 42 [--preset mission] [--threat-level 8] [...] [--text]

JSON goes to stdout.  `--text` prints the script's lines in words when the caller hands `main` a
renderer (the bot's, bot/games/space_alert/intercom.py: the engine holds no words), else in codes.
Any bad argument or invalid mission file gives exit code 2 and exactly one
line on stderr (no usage dump, no traceback), so a bot or a script can show it to a human as is.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from engine.flight.generator import PRESETS, GeneratorError, generate, preset_params
from engine.flight.script import Say, intercom_script, script_text
from engine.flight.timeline import (
    TimelineError,
    dumps_timeline,
    load_official,
    load_timeline_file,
    official_ids,
)
from engine.vocab import LANGUAGES


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line instead of usage + message
        raise _UsageError(message)


def _parser() -> _Parser:
    p = _Parser(prog="python -m engine timeline", description="Print a Space Alert mission timeline.")
    p.add_argument("mission", nargs="?", help=f"official id ({official_ids()[0]} ... {official_ids()[-1]})")
    p.add_argument("--file", help="a custom mission file to validate and print")
    p.add_argument("--generate", action="store_true", help="generate a random mission")
    p.add_argument("--seed", type=int, help="seed of the generated mission (required with --generate)")
    p.add_argument("--preset", choices=PRESETS, default="mission", help="difficulty preset of the generator")
    p.add_argument("--threat-level", type=int, help="threat units incl. unconfirmed (1-14)")
    p.add_argument("--unconfirmed-level", type=int, help="unconfirmed units (0-2)")
    p.add_argument("--min-internal-level", type=int, help="least internal units (0-6)")
    p.add_argument("--max-internal-level", type=int, help="most internal units (0-6)")
    p.add_argument("--max-serious-threats", type=int, help="cap on serious threats (0-4)")
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the spoken script")
    p.add_argument("--text", action="store_true", help="print the spoken script instead of JSON")
    return p


_OVERRIDES = (
    "threat_level",
    "unconfirmed_level",
    "min_internal_level",
    "max_internal_level",
    "max_serious_threats",
)


def _run(argv: list[str], say: Say | None) -> str:
    args = _parser().parse_args(argv)
    sources = sum(bool(x) for x in (args.mission, args.file, args.generate))
    if sources != 1:
        raise _UsageError("give exactly one of a mission id, --file or --generate")
    overrides: dict[str, Any] = {k: getattr(args, k) for k in _OVERRIDES if getattr(args, k) is not None}
    if not args.generate and (overrides or args.seed is not None or args.preset != "mission"):
        raise _UsageError("--seed, --preset and generator options need --generate")
    if args.generate:
        if args.seed is None:
            raise _UsageError("--generate needs --seed")
        timeline = generate(args.seed, args.preset, preset_params(args.preset, **overrides))
    elif args.file:
        timeline = load_timeline_file(args.file)
    else:
        timeline = load_official(args.mission)
    if args.text:
        return script_text(intercom_script(timeline, args.lang), say)
    return dumps_timeline(timeline.to_json_dict())


def main(argv: list[str], say: Say | None = None) -> int:
    """Entry point the engine CLI dispatches `timeline` to; returns the exit code.  `say`: what
    renders a spoken line in words (without it `--text` prints each line in codes)."""
    try:
        out = _run(argv, say)
    except (_UsageError, TimelineError, GeneratorError) as err:
        text = " ".join(str(err).split())  # exactly one line
        print(f"timeline: error: {text}", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
