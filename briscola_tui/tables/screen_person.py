"""The person at the screen as a network seat's `Person`: the bridge between the
network thread, which asks for the seat's decision, and the table screen, which
gives it (`network.NetTable.advance`, from the UI's thread)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from engine.state import Action

from ..net.client import Client


class ScreenPerson:
    """The person at the screen answers for the seat: `decision` is the future the table
    screen's choice resolves; `publish` tells the UI the table changed (the screen may ask)."""

    def __init__(self, publish: Callable[[], None]) -> None:
        self.publish = publish
        self.decision: asyncio.Future[Action | None] | None = None

    def prompt(self, offered: list[str]) -> None:
        """A question (new, or changed as the table went on): the decision the screen resolves.
        One still open stays open for it; one resolved already answered a question gone by,
        and is not kept for this one."""
        if self.decision is None or self.decision.done():
            self.decision = asyncio.get_running_loop().create_future()
        self.publish()

    async def answer(self) -> Action | None:
        """The action the person chose on the screen: the decision of the question put, taken
        as it is, resolved already if the person answered before this was awaited (the screen
        shows the question as soon as it is put)."""
        decision = self._decision()
        self.publish()  # the screen may ask now
        try:
            return await decision
        finally:
            if self.decision is decision:  # (not one a question put meanwhile opened)
                self.decision = None

    def awaiting(self, client: Client) -> bool:
        """The person's answer is wanted now (entries may still arrive meanwhile); not while
        an answer already given waits to be taken (after a reconnection)."""
        return (
            self.decision is not None
            and not self.decision.done()
            and not client.answer_given()
            and client.session is not None
            and client.session.my_turn()
        )

    def deliver(self, action: Action) -> None:
        """The person's choice (on the network thread): the answer, if one is still wanted."""
        decision = self.decision
        if decision is not None and not decision.done():
            decision.set_result(action)

    def _decision(self) -> asyncio.Future[Action | None]:
        if self.decision is None:
            self.decision = asyncio.get_running_loop().create_future()
        return self.decision
