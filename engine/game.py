"""What every game object offers, and option checking shared by all games.

A game object is a configuration (game, player count, options) that knows
its deck, its deal plan and how to start a hand. `engine.games.make` builds
one by name.
"""

from __future__ import annotations

from .cards import Card
from .coded import CodedError
from .deal import Deal, DealPlan
from .facts import PlayView, Result, Side, Sides, common_from_json
from .state import PUBLIC, State


class OptionError(CodedError):
    """A game, player count or option the rule book does not have (a template and its fields)."""


class Game:
    """Base for the per-game classes in `engine/games/`."""

    name: str = ""
    PLAYERS: tuple[int, ...] = ()
    OPTIONS: dict[str, tuple] = {}
    """Option name -> allowed values, the default first."""
    INT_OPTIONS: dict[str, tuple[int, int, int]] = {}
    """Option name -> (default, lowest, highest) for whole-number options."""
    ACTIONS: dict[str, tuple[str, ...]] = {}
    """The decisions of this game in a replay file: action kind -> the JSON
    keys it takes beside `seat` and `action` (`card`, `cards`, `rank`,
    `target`, `contract`, `raise`)."""
    DEAL_KEYS: dict[str, str] = {}
    """The replay file's `deal` keys beside `hands` -> the `Deal` field each
    fills: `stock` or `monte` (a list of cards), `faceup` (one card)."""
    RESULT_KEYS: tuple[str, ...] = ()
    """Keys the replay file's `result` (`outcome().result.json()`) always has once a hand is
    over and was not redealt (`{"redeal": true}` when everybody passed)."""
    REDEAL_KEEPS_DEALER = False
    """True when a hand everybody passed is dealt again by the same dealer;
    False: the deal passes on as after any hand."""
    POINT_UNIT = "point"
    """What the game counts captured card values in (Calabresella: "third"): its states' unit,
    and a seat's view's between hands too."""
    SHARES_ONLY_CAUSE = False
    """True when only a key share can give an honest seat cause to stop a hand (no rule of
    the game turns on a card only one seat sees), so the end-of-hand audit can name a
    stopper from its own revealed seed alone (protocol/audit.py)."""

    def __init__(self, players: int, options: dict | None = None):
        if players not in self.PLAYERS:
            allowed = ", ".join(map(str, self.PLAYERS))
            raise OptionError(
                "{game} is played by {allowed} players, not {given}",
                game=self.name,
                allowed=allowed,
                given=repr(players),
            )
        self.players = players
        self.options = self._check_options(options or {})
        self._plans: dict[int, DealPlan] = {}
        """Deal plans by dealer, built once (a plan is immutable): every hand asks for one."""

    def _check_options(self, given: dict) -> dict:
        if not isinstance(given, dict):
            raise OptionError("options must be an object of option names to values")
        options = {name: values[0] for name, values in self.OPTIONS.items()}
        options.update({name: spec[0] for name, spec in self.INT_OPTIONS.items()})
        for name, value in given.items():
            if name in self.OPTIONS:
                options[name] = self._choice(name, value)
            elif name in self.INT_OPTIONS:
                options[name] = self._whole(name, value)
            else:
                known = ", ".join(sorted([*self.OPTIONS, *self.INT_OPTIONS])) or "-"
                raise OptionError(
                    "unknown {game} option {name} (known: {known})", game=self.name, name=repr(name), known=known
                )
        return options

    def _choice(self, name: str, value: object) -> object:
        allowed = self.OPTIONS[name]
        for candidate in allowed:
            # JSON gives "2" or 2, true or "true": accept the obvious spellings.
            if value == candidate or (not isinstance(value, bool) and str(value).lower() == str(candidate).lower()):
                return candidate
        shown = ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in allowed)
        raise OptionError(
            "option {name} must be one of {shown}, not {given}", name=name, shown=shown, given=repr(value)
        )

    def _whole(self, name: str, value: object) -> int:

        _, low, high = self.INT_OPTIONS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise OptionError(
                "option {name} must be a whole number {low}..{high}, not {given}",
                name=name,
                low=low,
                high=high,
                given=repr(value),
            )
        return value

    # --- what each game provides -------------------------------------------

    def deck(self) -> list[Card]:  # pragma: no cover - abstract
        """The cards of this game and player count, in index order."""
        raise NotImplementedError

    def plan(self, dealer: int) -> DealPlan:  # pragma: no cover - abstract
        raise NotImplementedError

    def new_hand(self, dealer: int, deal: Deal, viewer: int | None = None) -> State:  # pragma: no cover
        """The state at the start of a hand: `deal` as the holder (`viewer`) knows it."""
        raise NotImplementedError

    def deal_audiences(self, plan: DealPlan) -> list[tuple[int, object, int | None]]:
        """(position, holder, audience) for every position the deal places:
        hands, stock, the face-up card and the monte. The audience is the seat
        that sees the card, PUBLIC, or None for a card nobody sees yet."""
        placed: list[tuple[int, object, int | None]] = [
            (p, seat, seat) for seat, positions in enumerate(plan.hands) for p in positions
        ]
        placed += [(p, "stock", None) for p in plan.stock]
        if plan.faceup is not None:
            placed.append((plan.faceup, "faceup", PUBLIC))
        placed += [(p, "monte", None) for p in plan.monte]
        return placed

    def teams(self) -> list[list[int]] | None:
        """Fixed partnerships, or None when everyone plays for themself."""
        return None

    def sides(self) -> list[list[int]]:
        """Who scores together in a series: the teams, or each seat alone.
        Every seat of a side always has the same series score."""
        return self.teams() or [[seat] for seat in range(self.players)]

    def result_from_json(self, data: dict) -> Result:
        """The result whose replay-file form (`Result.json()`) is `data`: the game's facts
        module reads it (KeyError or ValueError when it is none)."""
        result = common_from_json(data)
        if result is None:
            raise ValueError("not a result of this game")
        return result

    @classmethod
    def sides_in_play(cls, view: PlayView) -> tuple[Side, ...]:
        """The sides of the play as `view`'s seat can tell them, beside fixed teams (which
        `engine.view.sides_of` gives): none when every seat plays for itself."""
        return ()

    def rated_sides(self, result: Result) -> Sides:
        """Who won or lost together in a hand with this `result`, as the club ledger rates it
        (each side's seats, in the order the result names them); () when it rates nobody (a
        redeal, a hand under way)."""
        return result.rated_sides(self.players, self.sides())

    def series_over(self, scores: list[int], hands_scored: int) -> bool:  # pragma: no cover - abstract
        """True when a series is over with these totals (one per seat) after
        `hands_scored` counted hands (redeals are not counted)."""
        raise NotImplementedError

    def check_deal(self, deal: Deal, dealer: int) -> None:
        """Raise ValueError unless a fully known deal uses exactly this game's deck."""
        plan = self.plan(dealer)
        for seat, (cards, positions) in enumerate(zip(deal.hands, plan.hands)):
            if len(cards) != len(positions):
                raise ValueError(f"seat {seat} must be dealt {len(positions)} cards, not {len(cards)}")
        if len(deal.stock) != len(plan.stock):
            raise ValueError(f"the stock must hold {len(plan.stock)} cards, not {len(deal.stock)}")
        if (deal.faceup is None) != (plan.faceup is None):
            raise ValueError(
                "the face-up briscola card is " + ("missing" if deal.faceup is None else "not used in this game")
            )
        if len(deal.monte) != len(plan.monte):
            raise ValueError(f"the monte must hold {len(plan.monte)} cards, not {len(deal.monte)}")
        cards = [c for h in deal.hands for c in h] + list(deal.stock) + list(deal.monte)
        if deal.faceup is not None:
            cards.append(deal.faceup)
        known = [c for c in cards if c is not None]
        if len(known) != len(cards):
            raise ValueError("the deal has hidden cards; a full deal is needed here")
        seen: set[Card] = set()
        for card in known:
            if card in seen:
                raise ValueError(f"{card} is dealt twice")
            seen.add(card)
        expected = set(self.deck())
        extra = sorted(seen - expected)
        if extra:
            raise ValueError(f"{' '.join(map(str, extra))} not in the {self.players}-player {self.name} deck")
        missing = sorted(expected - seen)
        if missing:
            raise ValueError(f"the deal misses {' '.join(map(str, missing))}")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.players} players {self.options}>"
