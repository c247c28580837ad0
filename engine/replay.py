"""Replay one fully known hand: JSON in, outcome out.

The format is specified in `docs/replay.md`. `run_hand` serves `briscola
replay` (and `python -m engine.replay FILE`). The end-of-hand audit replays
with its own loop in `protocol/audit.py`, because it must check the
Calabresella handover between player actions, which a replay file does not
record.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .cards import Card
from .coded import CodedError
from .deal import Deal
from .game import Game, OptionError
from .games import GAMES, make
from .state import CHANCE, Action, IllegalAction, Outcome, Refusal, State


class ReplayInputError(CodedError):
    """The file is not a valid replay (exit status 1): a template and its fields."""


class ActionError(CodedError):
    """An action the rules forbid (exit status 2); `index` counts from 0."""

    def __init__(self, index: int, reason: str, refusal: Refusal | None = None):
        super().__init__("action {index}: {reason}", index=index, reason=reason)
        self.refusal = refusal
        self.index = index
        self.reason = reason


# --- running a hand ---------------------------------------------------------


def resolve_chance(state: State) -> None:
    """Deal whatever the (fully known) state waits for."""
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcome())


def run_hand(game: Game, dealer: int, deal: Deal, actions: list[Action]) -> State:
    """Play `actions` from a fully known deal; ActionError names the first illegal one."""
    state = game.new_hand(dealer, deal)
    for index, action in enumerate(actions):
        resolve_chance(state)
        try:
            state.apply(action)
        except IllegalAction as error:
            raise ActionError(index, str(error), error.refusal) from None
    resolve_chance(state)
    return state


def outcome_json(outcome: Outcome) -> dict:
    out = {
        "complete": outcome.complete,
        "tricks": [
            {"leader": t.leader, "cards": [str(c) for c in t.cards], "winner": t.winner, "points": t.points}
            for t in outcome.tricks
        ],
        "points": outcome.points,
        "result": outcome.result.json(),
    }
    if outcome.complete:
        out["score"] = outcome.score
    return out


# --- reading the JSON -------------------------------------------------------


def _card(value: Any, where: str) -> Card:  # (parsed JSON: Card.parse refuses anything but a card's name)
    try:
        return Card.parse(value)
    except ValueError as error:
        raise ReplayInputError("{where}: {error}", where=where, error=str(error)) from None


def _cards(value: object, where: str) -> list[Card]:
    if not isinstance(value, list):
        raise ReplayInputError("{where}: expected a list of cards", where=where)
    return [_card(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _seat_int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ReplayInputError("{where}: expected a whole number, not {given}", where=where, given=repr(value))
    return value


def _action_fields() -> dict[str, tuple[str, ...]]:
    """Every game's decision kinds with their JSON keys (`Game.ACTIONS`), merged.

    A kind of another game is read, and then refused by the rules (exit 2),
    as any other action the rules forbid.
    """
    fields: dict[str, tuple[str, ...]] = {}
    for info in GAMES.values():
        for kind, keys in info.load().ACTIONS.items():
            fields[kind] = tuple(dict.fromkeys(fields.get(kind, ()) + keys))
    return fields


ACTION_FIELDS = _action_fields()


def action_from_json(data: object, index: int) -> Action:
    where = f"actions[{index}]"
    if not isinstance(data, dict):
        raise ReplayInputError("{where}: expected an object", where=where)
    kind = data.get("action")
    if kind not in ACTION_FIELDS:
        raise ReplayInputError(
            "{where}: unknown action {kind} (known: {known})",
            where=where,
            kind=repr(kind),
            known=", ".join(ACTION_FIELDS),
        )
    if "seat" not in data:
        raise ReplayInputError("{where}: missing {key}", where=where, key="'seat'")
    seat = _seat_int(data["seat"], f"{where}.seat")
    allowed = {"seat", "action", *ACTION_FIELDS[kind]}
    extra = sorted(set(data) - allowed)
    if extra:
        raise ReplayInputError("{where}: unexpected key {key} for {kind}", where=where, key=repr(extra[0]), kind=kind)
    fields: dict = {}
    if "card" in data:
        fields["card"] = _card(data["card"], f"{where}.card")
    elif "card" in ACTION_FIELDS[kind]:
        raise ReplayInputError("{where}: {kind} needs {key}", where=where, kind=kind, key="'card'")
    if "cards" in data:
        fields["cards"] = tuple(_cards(data["cards"], f"{where}.cards"))
    elif "cards" in ACTION_FIELDS[kind]:
        raise ReplayInputError("{where}: {kind} needs {key}", where=where, kind=kind, key="'cards'")
    if "rank" in data:
        rank = data["rank"]
        if not isinstance(rank, str):
            raise ReplayInputError("{where}: expected a rank letter", where=f"{where}.rank")
        fields["rank"] = rank.upper()
    if "target" in data:
        fields["target"] = _seat_int(data["target"], f"{where}.target")
    if "contract" in data:
        fields["contract"] = data["contract"]
    if "raise" in data:
        fields["choice"] = data["raise"]
    elif "raise" in ACTION_FIELDS[kind]:
        raise ReplayInputError("{where}: {kind} needs {key}", where=where, kind=kind, key="'raise'")
    return Action(seat, kind, **fields)


def action_to_json(action: Action) -> dict:
    data: dict = {"seat": action.seat, "action": action.kind}
    if action.card is not None:
        data["card"] = str(action.card)
    if "cards" in ACTION_FIELDS.get(action.kind, ()):
        data["cards"] = [str(c) for c in action.cards]
    for name in ("rank", "target", "contract"):
        if getattr(action, name) is not None:
            data[name] = getattr(action, name)
    if action.choice is not None:
        data["raise"] = action.choice
    return data


def read_replay(data: object) -> tuple[Game, int, Deal, list[Action]]:
    """Check a parsed replay document; return (game, dealer, deal, actions)."""
    if not isinstance(data, dict):
        raise ReplayInputError("a replay is a JSON object")
    for key in ("game", "players", "dealer", "deal", "actions"):
        if key not in data:
            raise ReplayInputError("missing key {key}", key=repr(key))
    try:
        game = make(data["game"], _seat_int(data["players"], "players"), data.get("options") or {})
    except OptionError as error:
        raise ReplayInputError(error.template, **error.fields) from None
    dealer = _seat_int(data["dealer"], "dealer")
    if not 0 <= dealer < game.players:
        raise ReplayInputError("{where}: must be a seat 0..{last}", where="dealer", last=game.players - 1)
    deal = _read_deal(data["deal"], game)
    try:
        game.check_deal(deal, dealer)
    except ValueError as error:
        raise ReplayInputError("{where}: {error}", where="deal", error=str(error)) from None
    if not isinstance(data["actions"], list):
        raise ReplayInputError("{where}: expected a list", where="actions")
    actions = [action_from_json(a, i) for i, a in enumerate(data["actions"])]
    return game, dealer, deal, actions


def _read_deal(data: object, game: Game) -> Deal:
    if not isinstance(data, dict):
        raise ReplayInputError("{where}: expected an object", where="deal")
    extra = sorted(set(data) - {"hands", *game.DEAL_KEYS})
    if extra:
        raise ReplayInputError(
            "{where}: unexpected key {key} for {kind}", where="deal", key=repr(extra[0]), kind=game.name
        )
    hands = data.get("hands")
    if not isinstance(hands, list) or len(hands) != game.players:
        raise ReplayInputError("{where}: expected {n} hands", where="deal.hands", n=game.players)
    deal = Deal([list(_cards(h, f"deal.hands[{i}]")) for i, h in enumerate(hands)])
    for key in game.DEAL_KEYS:
        if key not in data:
            raise ReplayInputError("{where}: missing {key}", where="deal", key=repr(key))
    for key, part in game.DEAL_KEYS.items():
        if part == "faceup":
            deal.faceup = _card(data[key], f"deal.{key}")
        else:
            setattr(deal, part, _cards(data[key], f"deal.{key}"))
    return deal


def replay(data: object) -> dict:
    """Replay a parsed JSON document; return the outcome as JSON-ready data.

    Raises ReplayInputError for a bad document and ActionError for an
    action the rules forbid.
    """
    game, dealer, deal, actions = read_replay(data)
    return outcome_json(run_hand(game, dealer, deal, actions).outcome())


def parse_text(text: str) -> Any:  # (any JSON document)
    """The JSON document in `text`; ReplayInputError (where it stops) when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ReplayInputError(
            "not valid JSON (line {line}, column {column})", line=error.lineno, column=error.colno
        ) from None


def replay_text(text: str) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) for the text of a replay file."""
    try:
        out = replay(parse_text(text))
    except ReplayInputError as error:
        return 1, "", f"{error}\n"
    except ActionError as error:
        return 2, "", f"{error}\n"
    return 0, json.dumps(out) + "\n", ""


def main(argv: list[str] | None = None, prog: str = "python -m engine.replay") -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(f"usage: {prog} FILE   (FILE '-' reads standard input)", file=sys.stderr)
        return 1
    try:
        if argv[0] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[0], encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(f"{prog}: cannot read {argv[0]}: {error.strerror or error}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(f"{prog}: {argv[0]} is not a text file (a replay is JSON)", file=sys.stderr)
        return 1
    status, out, err = replay_text(text)
    sys.stdout.write(out)
    if err:
        sys.stderr.write(f"{prog}: {err}")  # one line, the command's name first
    return status


if __name__ == "__main__":
    sys.exit(main())
