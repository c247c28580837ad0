"""`briscola replay FILE`: one fully known hand from a JSON file, its outcome as JSON, and
what is wrong with a file in the player's language (`engine.replay` checks it, and says
what is wrong as data: `engine_words.error_words` writes it)."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from engine.replay import ActionError, ReplayInputError, parse_text, replay

from ..engine_words import error_words
from ..language import _
from ..os_errors import os_error_words
from ..render import refusal

PROG = "briscola replay"


def replay_file(path: str, out: TextIO, err: TextIO) -> int:
    """Replay the file at `path` ('-': standard input): 0 and the outcome on `out`; 1 for a file
    that cannot be read or is no valid replay, 2 for an illegal action (one line on `err`)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        return _say(err, _("cannot read {path}: {why}").format(path=path, why=os_error_words(error)), 1)
    except UnicodeDecodeError:
        return _say(err, _("{path} is not a text file (a replay is JSON)").format(path=path), 1)
    try:
        outcome = replay(parse_text(text))
    except ReplayInputError as error:
        return _say(err, error_words(error), 1)
    except ActionError as error:
        if error.refusal is None:
            return _say(err, error_words(error), 2)
        why = refusal(error.refusal)  # the rule broken, in the player's words
        return _say(err, _("action {index}: {reason}").format(index=error.index, reason=why), 2)
    out.write(json.dumps(outcome) + "\n")
    return 0


def _say(err: TextIO, line: str, status: int) -> int:
    print(f"{PROG}: {line}", file=err)
    return status
