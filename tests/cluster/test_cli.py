"""`python -m bot --shards ... --shard-count ...` and SHARD_IDS / SHARD_COUNT: parsing,
validation, and exit code 2 with one readable line on nonsense."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.__main__ import parse_args
from bot.platform.client import ShardedSpaceAlertBot, SpaceAlertBot, make_bot
from bot.platform.cluster import ShardPlan, compact, parse_shard_ids
from bot.platform.settings import Settings
from bot.platform.storage import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]
PG = "postgresql://bot@db/space_alert"


@pytest.mark.parametrize(
    ("text", "ids"),
    [("0-3", [0, 1, 2, 3]), ("0,2,5", [0, 2, 5]), ("0-1,6-7", [0, 1, 6, 7]), (" 4 ", [4]), ("3, 1", [3, 1])],
)
def test_shard_lists_and_ranges(text: str, ids: list[int]) -> None:
    assert parse_shard_ids(text) == ids


@pytest.mark.parametrize("text", ["", "a", "1-", "-1", "3-1", "0,,1", "0-3,2", "1.5", "0-99999"])
def test_nonsense_shard_lists(text: str) -> None:
    with pytest.raises(ValueError):
        parse_shard_ids(text)


def test_compact_is_the_inverse_of_parsing() -> None:
    assert compact([0, 1, 2, 3, 6, 8, 9]) == "0-3,6,8-9"
    assert parse_shard_ids(compact([5, 1, 2, 3])) == [1, 2, 3, 5]


def test_plan_validation() -> None:
    assert ShardPlan.build(None, 4).shard_ids == (0, 1, 2, 3)  # a count alone: every shard here
    assert ShardPlan.build([2, 3], 4).describe() == "shards 2-3 of 4"
    assert not ShardPlan.build(None, None).sharded
    for ids, count in [([0], None), ([4], 4), ([], 4), (None, 0), ([1, 1], 4)]:
        with pytest.raises(ValueError):
            ShardPlan.build(ids, count)


def test_flags_override_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_IDS", "0-1")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("DATABASE_URL", PG)
    assert Settings(_env_file=None).shard_ids == [0, 1]
    overrides = parse_args(["--shards", "2,3", "--shard-count", "4"])
    assert overrides == {"shard_ids": [2, 3], "shard_count": 4}
    settings = Settings(_env_file=None, **overrides)
    assert (settings.shard_ids, settings.shard_count) == ([2, 3], 4)
    assert parse_args([]) == {}


def test_blank_shard_settings_mean_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SHARD_IDS", "SHARD_COUNT", "IDENTIFY_CONCURRENCY", "DATABASE_URL"):
        monkeypatch.setenv(name, "")
    settings = Settings(_env_file=None)
    assert (settings.shard_ids, settings.shard_count, settings.identify_concurrency) == (None, None, None)
    assert settings.database_url is None


def test_some_shards_need_a_shared_database() -> None:
    with pytest.raises(ValidationError, match="DATABASE_URL"):
        Settings(_env_file=None, shard_ids="0-1", shard_count=4)
    Settings(_env_file=None, shard_count=4)  # every shard in one process: SQLite is fine


async def test_make_bot_picks_the_sharded_client(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "x.sqlite3")
    sharded = make_bot(
        settings=Settings(_env_file=None, shard_ids="1-2", shard_count=4, database_url=PG), storage=storage
    )
    assert isinstance(sharded, ShardedSpaceAlertBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([1, 2], 4)
    assert sharded.cluster.owns(1 << 22) and not sharded.cluster.owns(0)
    plain = make_bot(settings=Settings(_env_file=None), storage=storage)
    assert type(plain) is SpaceAlertBot and plain.cluster.owns(0)


def run_bot(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    unset = ("DATABASE_PATH", "DATABASE_URL", "SHARD_IDS", "SHARD_COUNT")
    full = {k: v for k, v in os.environ.items() if k not in unset}
    full |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x"} | env
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT / "tests", env=full, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("args", "env", "needle"),
    [
        (["--shards", "0-x", "--shard-count", "8"], {}, "--shards"),
        (["--shards", "0-3"], {"DATABASE_URL": PG}, "--shard-count"),
        (["--shards", "6-9", "--shard-count", "8"], {"DATABASE_URL": PG}, "shard 8 does not exist"),
        (["--shard-count", "many"], {}, "--shard-count"),
        (["--shards", "0-3", "--shard-count", "8"], {}, "DATABASE_URL"),
        ([], {"SHARD_IDS": "0-3", "SHARD_COUNT": "0", "DATABASE_URL": PG}, "shard count"),
        (["--frobnicate"], {}, "unrecognized"),
    ],
)
def test_nonsense_exits_2_with_one_line(args: list[str], env: dict[str, str], needle: str) -> None:
    proc = run_bot(*args, **env)
    assert proc.returncode == 2, proc.stderr
    assert needle in proc.stderr
    assert "Traceback" not in proc.stderr
