"""`atomic.replace_file`, the one way briscola replaces a file: a failed write leaves
the old file and no temporary file; the new file is private; a symlink planted at
the temporary name is not followed; and every file briscola writes whole goes
through it (no routine of its own)."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from briscola_tui.files import atomic

ROOT = Path(__file__).resolve().parent.parent


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def note_fsyncs(monkeypatch) -> list[str]:
    """From now on, each fsync noted in order: "file" or "folder"."""
    order, fsync = [], os.fsync

    def note_fsync(fd):
        order.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", note_fsync)
    return order


@pytest.fixture
def old(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"old")
    return path


def test_a_replacement_is_private_and_fsynced_before_the_rename_and_after(tmp_path, monkeypatch):
    old_umask = os.umask(0o277)  # the umask cannot make it anything but 0o600
    try:
        path = tmp_path / "f"
        order, replace = note_fsyncs(monkeypatch), os.replace
        monkeypatch.setattr(os, "replace", lambda a, b: (order.append("rename"), replace(a, b)))
        atomic.replace_file(path, b"new")
    finally:
        os.umask(old_umask)
    assert path.read_bytes() == b"new" and mode(path) == 0o600
    assert order == ["file", "rename"] + (["folder"] if os.name == "posix" else [])
    assert os.listdir(tmp_path) == ["f"]


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_a_write_that_fails_midway_leaves_the_old_file_and_no_temporary_file(old, monkeypatch, failing):
    write = os.write

    def half_then_full(fd, data):
        write(fd, bytes(data[:3]))
        raise OSError(28, "No space left on device")

    def fail(*args):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, failing, half_then_full if failing == "write" else fail)
    with pytest.raises(OSError):
        atomic.replace_file(old, b"new and longer than three bytes")
    monkeypatch.undo()
    assert old.read_bytes() == b"old"
    assert os.listdir(old.parent) == [old.name]


def test_an_interrupt_midway_leaves_the_old_file_and_no_temporary_file(old, monkeypatch):
    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.replace_file(old, b"new")
    monkeypatch.undo()
    assert old.read_bytes() == b"old" and os.listdir(old.parent) == [old.name]


def test_a_seat_store_whose_serialization_fails_leaves_the_old_store(tmp_path, monkeypatch):
    from briscola_tui.files.storage import FileSeatStore

    store = FileSeatStore(tmp_path / "seat1.store")
    store.seeds[0] = bytes(32)
    store.save()
    before = store.path.read_bytes()
    store.seeds[1] = b"\x01" * 32
    write = os.write

    def five_bytes_then_a_bug(fd, data):
        write(fd, bytes(data[:5]))
        raise RuntimeError("a bug midway")

    monkeypatch.setattr(os, "write", five_bytes_then_a_bug)
    with pytest.raises(RuntimeError, match="a bug midway"):
        store.save()
    monkeypatch.undo()
    assert store.path.read_bytes() == before
    assert os.listdir(tmp_path) == ["seat1.store"]


def test_a_symlink_planted_at_the_temporary_name_is_not_followed(tmp_path, monkeypatch):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "settings.json"
    planted = folder / ".settings.json.guessed.tmp"
    planted.symlink_to(victim)
    names = iter([planted])
    fresh = atomic.temporary_name
    monkeypatch.setattr(atomic, "temporary_name", lambda p: next(names, None) or fresh(p))
    atomic.replace_file(path, b"{}")
    assert victim.read_text() == "precious"
    assert planted.is_symlink() and os.readlink(planted) == str(victim)  # left alone, not used
    assert path.read_bytes() == b"{}" and not path.is_symlink() and mode(path) == 0o600
    assert sorted(os.listdir(folder)) == sorted([planted.name, path.name])


def test_only_planted_names_is_an_error_and_writes_nothing(tmp_path, monkeypatch):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    planted = tmp_path / ".f.guessed.tmp"
    planted.symlink_to(victim)
    monkeypatch.setattr(atomic, "temporary_name", lambda p: planted)
    with pytest.raises(FileExistsError):
        atomic.replace_file(tmp_path / "f", b"new")
    assert victim.read_text() == "precious" and not (tmp_path / "f").exists()


def test_a_symlink_at_the_target_is_replaced_not_written_through(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("precious")
    link = tmp_path / "f"
    link.symlink_to(victim)
    atomic.replace_file(link, b"new")
    assert victim.read_text() == "precious"
    assert not link.is_symlink() and link.read_bytes() == b"new"


# --- every whole-file write goes through the helper ------------------------------------


def every_save(tmp_path: Path) -> dict[str, Path]:
    """Call each routine that writes a whole file; the file each should write."""
    from briscola_tui.files.saved import Slot
    from briscola_tui.files.settings import Settings
    from briscola_tui.files.storage import FileSeatStore, QuickSeatStore, save_transcript
    from briscola_tui.files.table_keys import _code_path, save_code

    save_transcript(tmp_path / "t.bin", bytes(range(16)), [])  # a header: entries change nothing here
    FileSeatStore(tmp_path / "a.store").save()
    QuickSeatStore(tmp_path / "b.store").save()
    slot = Slot.new("briscola")
    slot.create()
    slot.write_meta({"version": 1})
    settings = Settings().save(tmp_path / "settings.json")
    save_code(bytes(16), "abc123")
    return {
        "save_transcript": tmp_path / "t.bin",
        "FileSeatStore.save": tmp_path / "a.store",
        "QuickSeatStore.save": tmp_path / "b.store",
        "Slot.write_meta": slot.folder / "game.json",
        "Settings.save": settings,
        "save_code": _code_path(bytes(16)),
    }


def test_every_whole_file_write_goes_through_replace_file(tmp_path, monkeypatch):
    through, helper = [], atomic.replace_file
    monkeypatch.setattr(atomic, "replace_file", lambda path, data: (through.append(Path(path)), helper(path, data)))
    real_replace = os.replace

    def only_from_the_helper(src, dst):  # a routine of its own would rename by itself
        assert Path(dst) in through, f"{dst} renamed into place without atomic.replace_file"
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", only_from_the_helper)
    expected = every_save(tmp_path)
    for name, path in expected.items():
        assert path in through, f"{name} did not write {path} through atomic.replace_file"
        assert path.exists() and mode(path) == 0o600, name
    assert json.loads((expected["Slot.write_meta"]).read_text()) == {"version": 1}


def test_the_offline_seat_store_goes_through_the_helper_and_its_failure_is_told(tmp_path, monkeypatch):
    from briscola_tui.files.storage import QuickSeatStore

    def full(path, data):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "replace_file", full)
    told = []
    store = QuickSeatStore(tmp_path / "seat1.store")
    store.lost = told.append
    store.save()
    assert not store.kept and [e.strerror for e in told] == ["No space left on device"]


def test_no_module_replaces_or_makes_temporary_files_but_the_helper():
    pattern = re.compile(r"os\.replace|os\.rename|mkstemp|NamedTemporaryFile|\.write_bytes\(|\.write_text\(")
    allowed = {"briscola_tui/files/atomic.py"}
    port_file = "Path(self.port_file).write_text(str(port))"  # a port for scripts, no file of the player's
    found = []
    for source in sorted((ROOT / "briscola_tui").rglob("*.py")):
        name = source.relative_to(ROOT).as_posix()
        for number, line in enumerate(source.read_text().splitlines(), 1):
            if name not in allowed and pattern.search(line) and port_file not in line:
                found.append(f"{name}:{number}: {line.strip()}")
    assert found == []


def test_a_new_transcript_follows_the_same_rule_its_header_then_its_name(tmp_path, monkeypatch):
    from briscola_tui.files.storage import TranscriptFile

    order = note_fsyncs(monkeypatch)
    TranscriptFile.create(tmp_path / "t.bin", bytes(range(16))).close()
    assert order == ["file"] + (["folder"] if os.name == "posix" else [])
