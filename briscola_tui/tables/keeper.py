"""An offline game kept on disk as it goes, so that `OfflineTable.resume` can take it
up: in its `saved.Slot`, every entry appended to the transcript as it is ordered,
every node's key, the seats' secrets (their stores write them before any message
that depends on them), and what the transcript does not say (`game.json`). When
keeping fails (a full disk), the game plays on in memory and says why once."""

from __future__ import annotations

from typing import Any

from protocol.local import LocalTable

from ..files.saved import Slot
from ..files.storage import QuickSeatStore, TranscriptFile
from ..language import _
from ..os_errors import os_error_words


class Keeper:
    """Keeps one game in `slot`: `append` each entry, `remember` after each step."""

    def __init__(self, slot: Slot, table: LocalTable, log: TranscriptFile | None = None) -> None:
        self.slot, self.log = slot, log
        self.problem = ""
        """Why the game could not be kept ("" while it is)."""
        self.stores = [_store(seat.store) for seat in table.seats]
        for store in self.stores:
            store.lost = self.lost
        table.on_entry = self.append
        if log is not None:
            log.sync_each = False  # every node is in this process: nothing has left it before the write

    @classmethod
    def new(cls, slot: Slot, table: LocalTable) -> Keeper:
        """Start keeping a new game: the transcript and the keys now, every entry as it is ordered."""
        keeper = cls(slot, table)
        try:
            log = TranscriptFile.create(slot.transcript, table.host.table_id)
            log.sync_each = False
            keeper.log = log
            slot.save_identity("host", table.host.identity)
            for seat in table.seats:
                assert seat.identity is not None  # every seat of a LocalTable has its keys
                slot.save_identity(f"seat{seat.seat}", seat.identity)
        except OSError as error:
            keeper.lost(error)
        return keeper

    @property
    def kept(self) -> bool:
        """The game is on disk, and resumable."""
        return self.log is not None

    def append(self, entry: bytes) -> None:
        if self.log is None:
            return
        try:
            self.log.append(entry)
        except OSError as error:
            self.lost(error)

    def remember(self, meta: dict[str, Any] | None) -> None:
        """Write `meta`, what the transcript does not say (game.json); None: the game is over, its
        secrets are forgotten (its transcript stays, for the replay viewer)."""
        if self.log is None:
            return
        try:
            self.log.sync()
            if meta is None:
                self.log.close()
                self.log = None
                self.slot.discard()
                return
            self.slot.write_meta(meta)
        except OSError as error:
            self.lost(error)

    def lost(self, error: OSError) -> None:
        """Keeping the game failed: it plays on in memory, is not offered for resuming, and the
        reason is said once."""
        if self.problem:
            return
        if self.log is not None:
            self.log.close()
        self.log = None
        for store in self.stores:
            store.kept = False  # in memory from now on
        self.slot.discard()
        self.problem = _("the game could not be kept on disk: {why}").format(why=os_error_words(error))


def _store(store: object) -> QuickSeatStore:
    """A seat's store of a kept game (`Slot.store` made it)."""
    assert isinstance(store, QuickSeatStore)
    return store
