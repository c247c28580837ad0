"""An offline game kept on disk as it goes, so that it can be resumed after
the terminal goes away or the person quits mid-series.

In the user's data folder (`folders.data_dir`), for a game named
`offline-GAME-TIME-PID`:

- `transcripts/NAME.bin`: the table's transcript, each entry appended as it
  is ordered (the replay viewer lists it with the others);
- `saved/NAME/`: what the transcript does not hold — each node's identity
  key (`host.key`, `seatN.key`), each seat's secrets (`seatN.store`, the
  computer players' with the person's: it is one person's game) and
  `game.json` (the computer players' level and random state, the hands
  asked for, and what the home screen lists: game, players, hands played,
  scores).

Files are readable by the user only. The folder goes once the series is
over: a finished game is not offered again (its transcript stays).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..language import _
from ..os_errors import os_error_words
from . import atomic, folders
from .folders import data_dir, hold_lock

if TYPE_CHECKING:  # the home screen lists saved games without loading the protocol
    from protocol.identity import Identity
    from protocol.store import SeatStore

    from .storage import QuickSeatStore

META_VERSION = 1


class NotResumable(ValueError):
    """A saved game that cannot be resumed (said why, no secret in it)."""


@dataclass(frozen=True)
class Slot:
    """Where one offline game keeps what resuming it needs."""

    name: str
    root: Path
    """The data folder."""

    @classmethod
    def new(cls, game: str) -> Slot:
        """A fresh slot for a new game of `game` (nothing written yet)."""
        name, root, n = f"offline-{game}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}", data_dir(), 1
        slot = cls(name, root)
        while slot.transcript.exists() or slot.folder.exists():  # two games in one second
            n += 1
            slot = cls(f"{name}-{n}", root)
        return slot

    @property
    def transcript(self) -> Path:
        return self.root / "transcripts" / f"{self.name}.bin"

    @property
    def folder(self) -> Path:
        return self.root / "saved" / self.name

    def create(self) -> None:
        """Make the folders (readable by the user only) and hold the game's lock."""
        for folder in (self.transcript.parent, self.folder.parent, self.folder):
            folders.private_folder(folder)
        self.hold()

    def hold(self) -> None:
        """Hold this game for this process; `folders.InUse` if another one plays it."""
        hold_lock(f"saved/{self.name}/game")

    def key(self, node: str) -> Path:
        return folders.own_file(self.folder / f"{node}.key")  # never a link planted there

    def save_identity(self, node: str, identity: Identity) -> None:
        identity.save(self.key(node))

    def identity(self, node: str) -> Identity:
        from protocol.identity import Identity

        try:
            return Identity.load(self.key(node))
        except (OSError, ValueError) as error:
            raise NotResumable(
                _("the key of {node} cannot be read: {why}").format(node=node, why=os_error_words(error))
            ) from None

    def store(self, seat: int, start: SeatStore | None = None) -> QuickSeatStore:
        """Seat `seat`'s store on disk; a new one starts with `start`'s secrets (fixed deals)."""
        from .storage import QuickSeatStore

        store = QuickSeatStore(self.folder / f"seat{seat}.store")
        if start is not None:
            store.seeds.update(start.seeds)
            store.coins.update(start.coins)
            store.save()
        return store

    def write_meta(self, meta: dict) -> None:
        """Replace game.json at once (mode 0o600)."""
        atomic.replace_file(self.folder / "game.json", json.dumps(meta).encode())

    def read_meta(self) -> dict:
        try:
            meta = json.loads(folders.read_own(self.folder / "game.json").decode())
        except (OSError, ValueError) as error:
            raise NotResumable(
                _("{name}: no readable game.json ({why})").format(name=self.name, why=os_error_words(error))
            ) from None
        if not isinstance(meta, dict) or meta.get("version") != META_VERSION:
            raise NotResumable(_("{name}: game.json is not one this version wrote").format(name=self.name))
        return meta

    def discard(self) -> None:
        """The series is over: forget the keys and secrets (the transcript stays)."""
        shutil.rmtree(self.folder, ignore_errors=True)


def rng_state(rng: random.Random) -> list:
    """A Random's state as JSON can hold it."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def set_rng_state(rng: random.Random, state: list | tuple) -> None:
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))


@dataclass(frozen=True)
class SavedGame:
    """An unfinished offline game as the home screen lists it."""

    slot: Slot
    game: str
    players: int
    played: int
    scores: tuple
    names: tuple
    when: float
    """When it was last played (the transcript's last change)."""


def saved_games() -> list[SavedGame]:
    """The unfinished offline games in the data folder, newest first (unreadable ones left out)."""
    root = data_dir()
    try:
        found = [p for p in (root / "saved").iterdir() if p.is_dir() and not p.is_symlink()]  # a link: not ours
    except OSError:
        return []
    games = []
    for folder in found:
        slot = Slot(folder.name, root)
        try:
            meta = slot.read_meta()
            when = os.lstat(folders.own_file(slot.transcript)).st_mtime  # a link there: not resumed
            games.append(
                SavedGame(
                    slot,
                    str(meta["game"]),
                    int(meta["players"]),
                    int(meta.get("played", 0)),
                    tuple(meta.get("scores", ())),
                    tuple(meta.get("names", ())),
                    when,
                )
            )
        except (NotResumable, OSError, KeyError, TypeError, ValueError):
            continue
    return sorted(games, key=lambda g: g.when, reverse=True)
