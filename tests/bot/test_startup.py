"""`python -m bot` refuses a bad database (exit 3) or configuration (exit 2) with one line, fast.

Each case runs the real entry point in a subprocess with a token set (it never gets as far as
logging in) and checks the exit code, that stderr is exactly one line without a traceback, and
that the process ended on its own well within 20 s (a leftover aiosqlite thread used to keep it
alive forever).  Permission cases drop root's power to ignore file modes (CAP_DAC_OVERRIDE,
with util-linux `setpriv`) when the tests run as root; as any other user the modes apply anyway.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.games.space_alert.mission.storage import Flights
from bot.platform.storage import SqliteStorage
from bot.platform.storage.migrate import load_migrations

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 20.0
# root ignores file modes; without these two capabilities it obeys them like any other user
DROP_OVERRIDE = ["--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]


def modes_apply() -> list[str]:
    """The command prefix under which file modes are enforced for this test run."""
    if os.getuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without util-linux setpriv: file modes cannot be enforced")
    return [setpriv, *DROP_OVERRIDE]


@pytest.fixture
def place() -> Iterator[Path]:
    """A scratch folder any user can enter (pytest's tmp_path is private to its owner)."""
    folder = Path(tempfile.mkdtemp(prefix="sa-start-"))
    folder.chmod(0o777)
    yield folder
    subprocess.run(["chmod", "-R", "u+rwx", str(folder)], check=False)
    subprocess.run(["rm", "-rf", str(folder)], check=False)


def run_bot(
    cwd: Path,
    *,
    env: dict[str, str] | None = None,
    path_first: Path | None = None,
    obey_modes: bool = False,
    max_file_bytes: int | None = None,
) -> tuple[int, list[str], float]:
    """Run `python -m bot`; (exit code, stderr lines, seconds)."""
    unset = ("DATABASE_PATH", "DATABASE_URL", "SCENARIO_DIRS", "TIME_SCALE")
    full = {k: v for k, v in os.environ.items() if k not in unset}
    python_path = [str(ROOT)] if path_first is None else [str(path_first), str(ROOT)]
    full |= {"PYTHONPATH": os.pathsep.join(python_path), "DISCORD_TOKEN": "x", "PYTHONDONTWRITEBYTECODE": "1"}
    full |= env or {}

    def limits() -> None:
        if max_file_bytes is not None:  # a full disk: writes past the limit fail (EFBIG)
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))

    prefix = modes_apply() if obey_modes else []
    started = time.monotonic()
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "bot"],
        cwd=cwd,
        env=full,
        capture_output=True,
        text=True,
        timeout=LIMIT_S * 3,
        preexec_fn=limits,
    )
    return proc.returncode, proc.stderr.splitlines(), time.monotonic() - started


def assert_refused(result: tuple[int, list[str], float], code: int, *needles: str) -> str:
    returncode, lines, seconds = result
    assert returncode == code, lines
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    for needle in needles:
        assert needle in lines[0], lines[0]
    assert seconds < LIMIT_S
    return lines[0]


def make_database(path: Path, flights: int = 0, journal: str = "delete") -> None:
    """A migrated database (with some rows, so it spans many pages), closed and checkpointed."""
    import asyncio

    from tests.bot.test_storage import record

    async def build() -> None:
        storage = SqliteStorage(path)
        await storage.open()
        for i in range(flights):
            r = record(f"{i:08x}", channel=i)
            r.state = {"padding": "x" * 2000}
            await Flights(storage).create_flight(r)
        await storage.close()

    asyncio.run(build())
    if journal == "delete":  # one self-contained file, no -wal beside it
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA journal_mode=DELETE")


# -- the database ----------------------------------------------------------------------------------
def test_not_a_database(place: Path) -> None:
    (place / "db.sqlite3").write_bytes(b"this is a text file, not a database\n" * 200)
    line = assert_refused(run_bot(place, env={"DATABASE_PATH": "db.sqlite3"}), 3, "db.sqlite3")
    assert "not a usable SQLite database" in line


def test_truncated_database(place: Path) -> None:
    db = place / "db.sqlite3"
    make_database(db, flights=40)
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.truncate(size // 3)
    line = assert_refused(run_bot(place, env={"DATABASE_PATH": "db.sqlite3"}), 3, "db.sqlite3")
    assert "not a usable SQLite database" in line


@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_read_only_file(place: Path, journal: str) -> None:
    # in WAL mode a read-only file opens, reads and locks without complaint: only a write fails
    db = place / "db.sqlite3"
    make_database(db, journal=journal)
    db.chmod(0o444)
    line = assert_refused(run_bot(place, env={"DATABASE_PATH": "db.sqlite3"}, obey_modes=True), 3, "db.sqlite3")
    assert "read-only" in line


def test_read_only_folder(place: Path) -> None:
    folder = place / "data"
    folder.mkdir()
    make_database(folder / "db.sqlite3")
    (folder / "db.sqlite3").chmod(0o666)
    folder.chmod(0o555)
    result = run_bot(place, env={"DATABASE_PATH": "data/db.sqlite3"}, obey_modes=True)
    assert_refused(result, 3, "data/db.sqlite3")


def test_new_database_in_a_read_only_folder(place: Path) -> None:
    folder = place / "data"
    folder.mkdir()
    folder.chmod(0o555)
    assert_refused(run_bot(place, env={"DATABASE_PATH": "data/new.sqlite3"}, obey_modes=True), 3, "new.sqlite3")


def test_no_space_left(place: Path) -> None:
    # creating and migrating a database needs far more than 8 KiB: the writes fail like on a full disk
    line = assert_refused(
        run_bot(place, env={"DATABASE_PATH": "db.sqlite3"}, max_file_bytes=8192), 3, "Cannot start", "db.sqlite3"
    )
    assert "no space left" in line or "disk" in line


def test_schema_newer_than_the_bot(place: Path) -> None:
    db = place / "db.sqlite3"
    make_database(db)
    known = len(load_migrations())
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_version (version, name) VALUES (?, '9999_future.sql')", (known + 2,))
    line = assert_refused(run_bot(place, env={"DATABASE_PATH": "db.sqlite3"}), 3)
    assert line == f"Cannot start: database schema {known + 2} is newer than this bot ({known}); upgrade the bot"


@pytest.mark.parametrize(
    "shadow",
    [
        pytest.param(lambda root: None, id="package-missing"),
        pytest.param(lambda root: (root / "migrations" / "sqlite").mkdir(), id="package-empty"),
    ],
)
def test_migrations_missing_or_empty(place: Path, shadow: Callable[[Path], None]) -> None:
    # a `migrations` package first on the path, without the SQLite files (a broken install)
    fake = place / "site"
    (fake / "migrations").mkdir(parents=True)
    (fake / "migrations" / "__init__.py").write_text("")
    shadow(fake)
    if (fake / "migrations" / "sqlite").exists():
        (fake / "migrations" / "sqlite" / "__init__.py").write_text("")
    work = place / "work"
    work.mkdir()
    line = assert_refused(run_bot(work, env={"DATABASE_PATH": "db.sqlite3"}, path_first=fake), 3, "migrations")
    assert "reinstall" in line
    assert not (work / "db.sqlite3-wal").exists()


# -- the configuration -------------------------------------------------------------------------------
def test_unreadable_env_file(place: Path) -> None:
    env_file = place / ".env"
    env_file.write_text("TIME_SCALE=2\n")
    env_file.chmod(0o000)
    assert_refused(run_bot(place, obey_modes=True), 2, ".env")


def test_env_file_that_is_a_folder(place: Path) -> None:
    (place / ".env").mkdir()
    assert_refused(run_bot(place), 2, ".env", "folder")


def test_missing_scenario_folder(place: Path) -> None:
    assert_refused(run_bot(place, env={"SCENARIO_DIRS": str(place / "nowhere")}), 2, "SCENARIO_DIRS", "nowhere")


def test_unreadable_scenario_folder(place: Path) -> None:
    folder = place / "scenarios"
    folder.mkdir()
    folder.chmod(0o000)
    assert_refused(run_bot(place, env={"SCENARIO_DIRS": str(folder)}, obey_modes=True), 2, "SCENARIO_DIRS")


@pytest.mark.parametrize("value", ["0.05", "1000", "fast"])
def test_absurd_time_scale(place: Path, value: str) -> None:
    assert_refused(run_bot(place, env={"TIME_SCALE": value}), 2, "TIME_SCALE")


def test_postgres_that_does_not_answer(place: Path) -> None:
    url = "postgresql://postgres:secret@127.0.0.1:1/test"  # nothing listens on port 1
    line = assert_refused(run_bot(place, env={"DATABASE_URL": url}), 3, "Cannot start", "127.0.0.1:1")
    assert "secret" not in line  # the password never reaches the terminal


def test_database_url_that_is_not_postgres(place: Path) -> None:
    assert_refused(run_bot(place, env={"DATABASE_URL": "mysql://root@localhost/db"}), 2, "DATABASE_URL")
