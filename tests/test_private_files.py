"""Every file and folder briscola writes is private, whatever the umask; a data
folder open to others is made private (or refused when another user owns it);
nothing is written or locked through a planted symlink; a host transcript with
garbage on its end is a one-line error, and the file is left as it was."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from briscola_tui.files import folders
from briscola_tui.files.folders import UnsafeFolder, data_dir, hold_lock
from briscola_tui.files.settings import Settings
from briscola_tui.files.table_keys import save_code, saved_code

ROOT = Path(__file__).resolve().parent.parent


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


@pytest.fixture
def open_umask():
    old = os.umask(0)
    yield
    os.umask(old)


def test_settings_under_umask_000_are_private_and_so_are_the_folders_made_for_them(tmp_path, monkeypatch, open_umask):
    home = tmp_path / "a" / "b" / "home"
    monkeypatch.setenv("BRISCOLA_HOME", str(home))
    path = Settings(level="hard").save()
    assert path == home / "settings.json"
    assert mode(path) == 0o600
    for folder in (tmp_path / "a", tmp_path / "a" / "b", home):
        assert mode(folder) == 0o700, folder


def test_files_of_a_game_under_umask_000_are_private(tmp_path, monkeypatch, open_umask):
    """An offline game keeps keys, seat secrets, game.json and the transcript as it goes."""
    from briscola_tui.files.saved import Slot
    from briscola_tui.tables.offline import OfflineTable, Result

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    table = OfflineTable("briscola", 2, "random", 1, seed=1, deal_seed=1, slot=Slot.new("briscola"))
    assert table.advance() is Result.TURN
    written = list((tmp_path / "home").rglob("*"))
    assert {p.suffix for p in written} >= {".key", ".store", ".json", ".bin", ".lock"}
    for path in written:
        assert mode(path) == (0o700 if path.is_dir() else 0o600), path


def test_a_data_folder_others_can_read_is_made_private_with_a_warning(tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    os.chmod(home, 0o755)
    monkeypatch.setenv("BRISCOLA_HOME", str(home))
    monkeypatch.setattr(folders, "_WARNED", set())
    assert data_dir() == home
    assert mode(home) == 0o700
    assert f"briscola: {home} was open to other users (mode 755); made it private (700)" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to hand a folder to another user")
def test_a_data_folder_another_user_owns_is_refused(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    os.chown(home, 65534, 65534)
    monkeypatch.setenv("BRISCOLA_HOME", str(home))
    with pytest.raises(UnsafeFolder, match="belongs to another user"):
        data_dir()
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "join", "127.0.0.1:9", "--headless", "--retry", "0"],
        env={**os.environ, "BRISCOLA_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "belongs to another user" in done.stderr and "Traceback" not in done.stderr


def test_the_code_file_is_never_written_through_a_planted_symlink(tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    victim = tmp_path / "victim"
    victim.write_text("precious")
    table_id = bytes(range(16))
    codes = data_dir() / "codes"
    codes.mkdir(mode=0o700)
    link = codes / f"{table_id.hex()}.code"
    link.symlink_to(victim)
    assert saved_code(table_id) is None  # not read through the link either
    save_code(table_id, "abc123")
    assert victim.read_text() == "precious"
    assert not link.is_symlink() and mode(link) == 0o600
    assert saved_code(table_id) == "abc123"


def test_a_lock_is_never_taken_through_a_planted_symlink(tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (data_dir() / "planted.lock").symlink_to(victim)
    with pytest.raises(UnsafeFolder, match="is a symbolic link"):
        hold_lock("planted")
    assert victim.read_text() == "precious"


@pytest.mark.slow
def test_a_host_transcript_with_garbage_appended_is_a_one_line_error(tmp_path):
    env = {**os.environ, "BRISCOLA_HOME": str(tmp_path / "home")}
    made = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "selfplay", "--hands", "1", "-q", "--transcript", "t.bin"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stderr
    path = tmp_path / "t.bin"
    good = path.read_bytes()
    path.write_bytes(good + b"GARBAGE\x00\x01\x02 and more")
    before = path.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "host", "--headless", "--port", "0", "--transcript", "t.bin"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("briscola host: t.bin: entry ") and "cannot be read" in lines[0]
    assert path.read_bytes() == before  # nothing cut off or lost


# --- links where briscola expects a folder or file of its own ----------------------------


def planted(tmp_path: Path, target_mode: int = 0o755) -> Path:
    """Someone else's folder (open to all), with a file in it, for a link to point at."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "precious").write_text("precious")
    os.chmod(victim, target_mode)
    return victim


@pytest.mark.parametrize("name", ["seats", "host-bots", "codes", "transcripts"])
def test_a_subfolder_planted_as_a_link_is_refused_and_its_target_left_alone(tmp_path, monkeypatch, name):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    victim = planted(tmp_path)
    (data_dir() / name).symlink_to(victim)
    with pytest.raises(UnsafeFolder, match=f"^{tmp_path / 'home' / name} is a symbolic link; "):
        folders.subfolder(name)
    assert mode(victim) == 0o755 and sorted(p.name for p in victim.iterdir()) == [
        "precious"
    ]  # not chmod'ed, nothing in it
    assert (data_dir() / name).is_symlink()  # nothing removed either


def test_a_dangling_link_for_a_subfolder_is_refused_and_nothing_made_where_it_points(tmp_path, monkeypatch):
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    (data_dir() / "seats").symlink_to(tmp_path / "nowhere")
    with pytest.raises(UnsafeFolder, match="is a symbolic link"):
        folders.subfolder("seats")
    assert not (tmp_path / "nowhere").exists()


def test_a_data_folder_that_is_a_link_is_refused(tmp_path, monkeypatch):
    victim = planted(tmp_path)
    (tmp_path / "home").symlink_to(victim)
    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    with pytest.raises(UnsafeFolder, match="is a symbolic link"):
        data_dir()
    assert mode(victim) == 0o755


def test_a_seat_store_planted_as_a_link_is_not_read(tmp_path, monkeypatch):
    from briscola_tui.files.storage import FileSeatStore

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    victim = planted(tmp_path) / "precious"
    table_id = bytes(range(16))
    (folders.subfolder("seats") / f"{table_id.hex()}-seat0.store").symlink_to(victim)
    with pytest.raises(UnsafeFolder, match="seat0.store is a symbolic link"):
        FileSeatStore.for_seat(table_id, 0)
    assert victim.read_text() == "precious"


@pytest.mark.slow
@pytest.mark.parametrize("planted_at", ["seats", "tables", "host-bots"])  # (tables/: the table keys)
def test_a_host_with_a_link_in_its_data_folder_stops_with_one_line(tmp_path, planted_at):
    """A real `briscola host`: a link where its folder or key should be is named, and refused
    before anything is written or listened on; the link's target is left as it was."""
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    victim = planted(tmp_path)
    (home / planted_at).symlink_to(victim / "precious" if planted_at.endswith(".key") else victim)
    command = ["host", "--headless", "--bind", "127.0.0.1", "--port", "0", "--bots", "1", "--level", "random"]
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui", *command],
        cwd=tmp_path,
        env={**os.environ, "BRISCOLA_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith(f"briscola host: {home / planted_at} is a symbolic link; "), done.stderr
    assert mode(victim) == 0o755 and sorted(p.name for p in victim.iterdir()) == ["precious"]
    assert (victim / "precious").read_text() == "precious"
    assert not (home / "transcripts").exists() or not any((home / "transcripts").iterdir())  # no table was opened


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["join", "watch"])
def test_a_client_with_a_link_for_its_transcripts_stops_with_one_line_before_connecting(tmp_path, kind):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    victim = planted(tmp_path)
    (home / "transcripts").symlink_to(victim)
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui", kind, "127.0.0.1:9", "--headless", "--retry", "0", "--code", "x"],
        env={**os.environ, "BRISCOLA_HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == (
        f"briscola {kind}: {home / 'transcripts'} is a symbolic link; briscola keeps keys and secrets "
        "only in folders and files of its own (remove the link)\n"
    )
    assert done.stdout == "" and mode(victim) == 0o755


@pytest.mark.slow
def test_a_saved_game_whose_folder_or_transcript_is_a_link_is_not_offered(tmp_path, monkeypatch):
    from briscola_tui.files.saved import saved_games

    monkeypatch.setenv("BRISCOLA_HOME", str(tmp_path / "home"))
    done = subprocess.run(
        [sys.executable, "-m", "briscola_tui", "selfplay", "--hands", "1", "-q", "--transcript", "t.bin"],
        cwd=tmp_path,
        env={**os.environ, "BRISCOLA_HOME": str(tmp_path / "home")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    saved = folders.subfolder("saved")
    transcripts = folders.subfolder("transcripts")
    real = saved / "offline-briscola-real"
    real.mkdir(mode=0o700)
    (real / "game.json").write_text('{"version": 1, "game": "briscola", "players": 2}')
    (transcripts / "offline-briscola-real.bin").write_bytes((tmp_path / "t.bin").read_bytes())
    assert [g.slot.name for g in saved_games()] == ["offline-briscola-real"]
    (saved / "offline-briscola-linked").symlink_to(real)  # a folder planted as a link
    (transcripts / "offline-briscola-linked.bin").write_bytes((tmp_path / "t.bin").read_bytes())
    elsewhere = saved / "offline-briscola-elsewhere"  # a real folder, its transcript a link
    elsewhere.mkdir(mode=0o700)
    (elsewhere / "game.json").write_text('{"version": 1, "game": "briscola", "players": 2}')
    (transcripts / "offline-briscola-elsewhere.bin").symlink_to(tmp_path / "t.bin")
    assert [g.slot.name for g in saved_games()] == ["offline-briscola-real"]
