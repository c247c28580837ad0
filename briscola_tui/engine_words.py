"""The words that come from `engine/` and `protocol/` and reach a player, marked for the
catalogue here: `engine/` and `protocol/` do not import `briscola_tui` (nor its `_`), so
their English words are listed with `N_` below and translated with `_` where the app, the
headless clients and `render` write them.

- actions (`engine.labels.label`): `action_words` writes an action as `label` does, in the
  current language (in English, `label`'s very text), a bid's rank in its words (`bid_rank`):
  their words are in `action_phrases`, listed here with the rest;
- the games' titles and short names (`engine.games.GAMES`): `title`, `short`;
- the French suit names (`engine.cards.SUIT_NAMES`; the Italian ones stay as they are);
- the errors the engine raises as data (`engine.coded.CodedError`: a bad option, a bad
  replay file): `error_words`, from the template listed in `ERRORS` and the fields;
- the reasons that travel between nodes (`protocol.reasons`: a refusal, a goodbye, a close):
  `reason_words`, from the code's words listed in `REASONS`; a text that is no known code is
  shown as it is, marked as the peer's own words;
- the audit's reasons (`protocol.audit.Culprit.reason`): `culprit_reason`, only for a
  reason written by the audit (listed here); any other is data and stays as it is.

tests/test_italian_words.py walks the engine's own tables (action kinds, games, suits, the
audit's and the refusals' sources) and fails when a word there is not listed here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.games import GAMES
from engine.text import visible

from .action_phrases import ACTIONS, action_words, bid_bare, bid_rank
from .language import N_, _

if TYPE_CHECKING:  # (the protocol is loaded only when a reason is written: not for --help)
    from protocol.reasons import Reason

__all__ = [
    "ACTIONS",
    "CULPRIT_REASONS",
    "GAME_WORDS",
    "REFUSAL_RULES",
    "SUIT_WORDS",
    "action_words",
    "bid_bare",
    "bid_rank",
    "culprit_reason",
    "error_words",
    "name_problem_words",
    "protocol_error_words",
    "reason_words",
    "short",
    "suit_word",
    "title",
]

GAME_WORDS = (N_("Briscola"), N_("Briscola Chiamata"), N_("Calabresella"), N_("Chiamata"))
"""The titles and short names of `engine.games.GAMES`, listed for the catalogue (the test
checks this list holds each of them)."""

SUIT_WORDS = {"diamonds": N_("diamonds"), "hearts": N_("hearts"), "spades": N_("spades"), "clubs": N_("clubs")}
"""The French suits' names (`engine.cards.SUIT_NAMES`) in words; the Italian names stay."""

CULPRIT_REASONS = (
    N_("revealed seed does not match its commitment"),
    N_("its sealing key is not the one its seed gives"),
    N_("its committed deck keys are not the ones its seed gives"),
    N_("sent a wrong key share"),
    N_("stopped the hand without cause"),
    N_("falsely denied holding the called card"),
)
"""The audit's fixed reasons (`protocol.audit`): a reason that is one of these is translated."""
CULPRIT_PATTERNS = (
    (
        re.compile(
            r"its phase-(?P<phase>\d+) shuffle is not what its secrets give \(a substituted, duplicated or marked card\)$"
        ),
        N_("its phase-{phase} shuffle is not what its secrets give (a substituted, duplicated or marked card)"),
    ),
    (
        re.compile(r"left or withheld its (?P<owed>\S+) past the time limit$"),
        N_("left or withheld its {owed} past the time limit"),
    ),
    (re.compile(r"illegal action: (?P<why>.*)$"), N_("illegal action: {why}")),
)
"""The audit's reasons with a part of their own: the part is kept as it is (a message kind,
the engine's words)."""

ERRORS = (
    N_("{game} is played by {allowed} players, not {given}"),
    N_("options must be an object of option names to values"),
    N_("unknown {game} option {name} (known: {known})"),
    N_("option {name} must be one of {shown}, not {given}"),
    N_("option {name} must be a whole number {low}..{high}, not {given}"),
    N_("unknown game {name} (games: {games})"),
    N_("{where}: {error}"),
    N_("{where}: expected a list of cards"),
    N_("{where}: expected a whole number, not {given}"),
    N_("{where}: expected an object"),
    N_("{where}: unknown action {kind} (known: {known})"),
    N_("{where}: missing {key}"),
    N_("{where}: unexpected key {key} for {kind}"),
    N_("{where}: {kind} needs {key}"),
    N_("{where}: expected a rank letter"),
    N_("a replay is a JSON object"),
    N_("missing key {key}"),
    N_("{where}: must be a seat 0..{last}"),
    N_("{where}: expected a list"),
    N_("{where}: expected {n} hands"),
    N_("not valid JSON (line {line}, column {column})"),
    N_("action {index}: {reason}"),
    # engine.labels.LabelError: a typed move that is none
    N_("no label for an action of kind {kind}"),
    N_("an action is text like 'play 3S', not {given}"),
    N_("no action given; write one, e.g. 'play 3S' or 'pass'"),
    N_("{kind} takes one card, e.g. '{kind} 3S'"),
    N_("'{kind}' takes nothing after it, not '{given}'"),
    N_("no such raise '{given}'; after Solissimo write {raises}"),
    N_("'{word}' is dealt by the table, not played by a seat"),
    N_("unknown action '{word}'; did you mean '{hint}'?"),
    N_("unknown action '{word}'; actions are {kinds}"),
    N_(
        "no such card '{word}'; cards are written rank then suit, e.g. 3S, KD (ranks A 2 3 4 5 6 7 J Q K, suits D H S C)"
    ),
    N_("{kind} needs its cards, e.g. '{kind} 4C 5C' (or '{kind} none')"),
    N_("{card} is named twice in '{given}'"),
    N_("a target is a whole number from {low} to {high}, not '{word}'"),
    N_("only the 2 is bid with a target (bid 2 target 75), not '{given}'"),
    N_(
        "no such bid '{given}'; a bid is a rank (bid K), the 2 with a target (bid 2 target 75), a target "
        "(bid target 75) or a contract (bid chiamo, bid solo, bid solissimo)"
    ),
    N_("the hand is over"),
    N_("wait: cards are being dealt"),
    N_("it is seat {turn}'s turn, not seat {seat}'s"),
    N_("'{label}' is not a legal action now; legal: {legal}"),
    N_("'{label}' is not a legal action now ({why}); legal: {legal}"),
    N_("'{label}' is not a legal action now; legal: {legal}, ... ({n} in all)"),
    N_("'{label}' is not a legal action now ({why}); legal: {legal}, ... ({n} in all)"),
    N_("'{word}' is dealt by the table, not played by a seat; did you mean '{hint}'?"),
)
"""The templates of the engine's errors as data (`CodedError`: `OptionError`, the replay
file's errors); tests/test_italian_errors.py checks each template the engine raises is here."""

REASONS = {
    "wrong-code": N_("wrong join code"),
    "wrong-code-open": N_("wrong join code (this table is open: join it without --code)"),
    "version": N_("protocol version {theirs}; this host speaks {ours}"),
    "no-hello": N_("a connection starts with hello"),
    "no-confirm": N_("expected the key confirmation"),
    "no-request": N_("expected the client's request"),
    "no-proof": N_("expected the handshake proof"),
    "bad-proof": N_("the handshake proof is not signed by the key offered"),
    "other-key": N_("the hello named another key than the request"),
    "bad-frame": N_("a connection frame is an array starting with its kind"),
    "unknown-frame": N_("unknown connection frame {kind}"),
    "malformed": N_("a malformed frame ({detail})"),
    "bad-role": N_("role must be player or spectator, not {role}"),
    "no-key": N_("a player brings its 32-byte Ed25519 key"),
    "bad-name": N_("the name {name} cannot sit at a table"),
    "bot-name": N_(
        "{name}: a name such as cpu1 (cpu and a digit) is kept for the host's computer players: choose another"
    ),
    "bot-join": N_("a join under a name kept for the host's computer players (such as cpu1)"),
    "evicted": N_("this key was evicted from this table for cheating (watch it instead)"),
    "no-free-seat": N_("no seat is free at this table (watch it instead)"),
    "seat-taken": N_("seat {seat} is taken"),
    "seat-given": N_("your seat was given to a computer player"),
    "kept-out-seconds": N_("too many messages: kept out for {seconds} s"),
    "too-large": N_("a message over the size limit"),
    "flooding": N_("flooding the table with out-of-date messages"),
    "other-signer": N_("a message signed by another key than the one this connection proved"),
    "after-handshake": N_("{kind} after the handshake"),
    "spectator-message": N_("a spectator cannot send game messages"),
    "busy-idle": N_("the host is busy: too many idle connections from your address"),
    "busy-address": N_("the host is busy: too many connections from your address"),
    "busy-handshakes": N_("the host is busy: too many connections in their handshake"),
    "busy-full": N_("the host has too many connections"),
    "kept-out": N_("too many messages: kept out for now"),
    "kept-out-address": N_("too many connections from your address: kept out for now"),
    "guesses-address": N_("too many wrong codes from your address; wait {seconds} s"),
    "guesses-key": N_("too many wrong codes from your key; wait {seconds} s"),
    "same-key": N_("the same key connected again"),
    "too-slow": N_("too slow to read the table"),
    "relay-failed": N_("the host failed to relay to this connection"),
    "tampered": N_("a frame failed its integrity check (changed, cut short, replayed or out of order on the way)"),
    "no-handshake": N_("no handshake in time"),
    "connection-lost": N_("connection lost"),
    "series-over": N_("the series is over; scores {scores}"),
    "table-stopped": N_("the table stopped"),
    "done": N_("done: the client holds the table's end"),
    "spectator-left": N_("the spectator left"),
    "host-closed": N_("the host closed the table"),
    "hands-played": N_("the table ends after hand {hands}, as it was started"),
    "old-transcript": N_(
        "a transcript of format {theirs}, written by an earlier release; this release reads only format {ours} (proofs about hidden cards, sealing on secp256k1, a complaint anyone can check) and cannot check it"
    ),
}
"""Each code of `protocol.reasons.REASONS` in words (tests/test_italian_errors.py checks both
tables hold the same codes and the same English)."""
PEER_WORDS = N_("“{words}” (in the peer's own words)")
"""A reason that is no known code: shown as it is, marked as the peer's."""

REFUSAL_RULES = (
    "follow_suit",
    "hand_over",
    "defenders_hand_over",
    "call_rank",
    "two_rule_two",
    "two_rule_held",
    "two_rule_lowest",
    "out_of_turn",
    "not_held",
    "not_now",
)
"""The rules `render.refusal` writes in a player's words (`engine.state.Refusal.rule`)."""


def title(game: str) -> str:
    """A game's full name in the current language (`GAMES[game].title`); an unknown game as it is."""
    info = GAMES.get(game)
    return _(info.title) if info is not None else game


def short(game: str) -> str:
    """A game's name in a list (`GAMES[game].short`), in the current language."""
    info = GAMES.get(game)
    return _(info.short) if info is not None else game


def suit_word(name: str) -> str:
    """A French suit's name ("spades") in the current language; an Italian one as it is."""
    return _(SUIT_WORDS[name]) if name in SUIT_WORDS else name


def culprit_reason(reason: str) -> str:
    """An audit's reason in the current language when the audit wrote it (one listed here);
    any other reason (a peer's words) as it is."""
    if reason in CULPRIT_REASONS:
        return _(reason)
    for pattern, template in CULPRIT_PATTERNS:
        match = pattern.match(reason)
        if match:
            return _(template).format(**match.groupdict())
    return reason


NAME_FAULTS = (
    N_("a name cannot be empty"),
    N_("a name cannot hold {what} (U+{code}, {char})"),
    N_("a name cannot be blank"),
    N_("a name cannot start or end with a space"),
    N_("a name must be in Unicode normal form C (NFC)"),
    N_("a name has at most {most} characters, not {given}"),
)
"""Why a name cannot sit at a table (`engine.text.name_fault`)."""
CHARACTERS = {
    "a bidi control": N_("a bidi control"),
    "a blank filler": N_("a blank filler"),
    "a control character": N_("a control character"),
    "a formatting character": N_("a formatting character"),
    "a line break": N_("a line break"),
    "a noncharacter": N_("a noncharacter"),
    "a private-use character": N_("a private-use character"),
    "a space other than the plain one": N_("a space other than the plain one"),
    "a surrogate": N_("a surrogate"),
    "a zero-width character": N_("a zero-width character"),
}
"""The kinds of character a name may not hold (`what` in `NAME_FAULTS`)."""


def name_problem_words(name: str) -> str | None:
    """Why `name` cannot sit at a table (`engine.text.name_fault`) in the current language; None
    when it can."""
    from engine.text import name_fault

    fault = name_fault(name)
    if fault is None:
        return None
    template, fields = fault
    if "what" in fields and fields["what"] in CHARACTERS:
        fields = {**fields, "what": _(CHARACTERS[str(fields["what"])])}
    return _(template).format(**fields) if template in NAME_FAULTS else template.format(**fields)


def error_words(error: Exception) -> str:
    """An engine's error in the current language: a `CodedError` from its template (when listed
    in `ERRORS`) and its fields; any other as it is."""
    template, fields = getattr(error, "template", None), getattr(error, "fields", None)
    if template in ERRORS and isinstance(fields, dict):
        return _(template).format(**fields)
    return str(error)


def reason_words(reason: Reason | str) -> str:
    """A reason that travels between nodes in the current language: a `Reason`, or a frame's
    field as it came (a known code and its fields; any other text, shortened, as the peer's
    own words, shown literally)."""
    from protocol import reasons

    if isinstance(reason, str):
        found = reasons.read(reason)
        if found is None:
            return _(PEER_WORDS).format(words=visible(reason[: reasons.MAX_REASON]))
        reason = found
    if reason.code == "bad-name" and (problem := name_problem_words(reason.fields["name"])) is not None:
        return _("name: {problem}").format(problem=problem)  # why, from the name itself
    fields = {name: visible(value) for name, value in reason.fields.items()}
    return _(REASONS[reason.code]).format(**fields)


def protocol_error_words(error: BaseException) -> str:
    """A `ProtocolError` in the current language when it carries a code (`coded`); the
    protocol's own English words otherwise (a frame or an entry that does not parse)."""
    coded = getattr(error, "coded", None)
    return reason_words(coded) if coded is not None else str(getattr(error, "reason", error))
