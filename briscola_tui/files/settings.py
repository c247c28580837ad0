"""The player's settings, remembered between runs: a small JSON file in the
user's config directory ($BRISCOLA_HOME when set, as for the data folder).

A file that cannot be read or holds a wrong value is not fatal: the defaults
are used and `Settings.problem` says what was wrong, for the home screen to
show."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from ..language import LANGUAGE_NAMES, LANGUAGES, N_, _

FILE = "settings.json"
LEVELS = ("random", "easy", "normal", "hard")
CHOICES = {
    "ascii": ("auto", "on", "off"),
    "four_colour": (False, True),
    "suit_names": ("french", "italian"),
    "level": LEVELS,
    "bell": (True, False),
    "language": LANGUAGES,
}
"""Each setting's values, the default first (and `club`: "" or the name of a club kept, CLUB_NAME
characters at most)."""
CLUB_NAME = 32
EXPLAIN = {
    "ascii": N_("suits as letters (AS 3H KD 7C) and no box lines; auto: when the terminal cannot show glyphs"),
    "four_colour": N_("four colours (spades plain, hearts red, diamonds blue, clubs green) instead of two"),
    "suit_names": N_("suit names in words: french (spades, hearts...) or italian (Spade, Coppe, Denari, Bastoni)"),
    "level": N_("the computer players' level when you play against the computer"),
    "bell": N_("the terminal bell when your turn comes after a wait of over a second"),
    "language": N_("the words: English, italiano, or auto: as the environment says (LANGUAGE, LC_MESSAGES, LANG)"),
    "club": N_(
        "the club the Host, Join and Watch forms go through at first: none (the LAN) or one kept by "
        "briscola club add (a command goes through a club only with --club)"
    ),
}
"""What each setting does, as the settings screen explains it (translate with `_` where shown)."""
VALUE_WORDS = {
    "auto": N_("auto"),
    "on": N_("on"),
    "off": N_("off"),
    "french": N_("french"),
    "italian": N_("italian"),
    "random": N_("random"),
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
}
"""The words for the settings' values, as the settings screen shows them (the values saved stay
these English words)."""


def value_word(name: str, value: object) -> str:
    """A setting's value in words, in the current language: on/off for a yes or no, a language
    by its own name ("English", "italiano"), the others as `VALUE_WORDS` says."""
    if isinstance(value, bool):
        value = "on" if value else "off"
    if name == "language" and value in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[value]
    return _(VALUE_WORDS[value]) if value in VALUE_WORDS else str(value)


def config_dir() -> Path:
    """$BRISCOLA_HOME, else the user's config directory for briscola-tui."""
    home = os.environ.get("BRISCOLA_HOME")
    if home:
        return Path(home)
    import platformdirs

    return Path(platformdirs.user_config_dir("briscola-tui", appauthor=False))


@dataclass
class Settings:
    ascii: str = "auto"
    four_colour: bool = False
    suit_names: str = "french"
    level: str = "normal"
    bell: bool = True
    language: str = "auto"
    club: str = ""  # the club the network forms go through at first (a name kept by `briscola club add`); "": the LAN
    problem: str = ""  # what was wrong with the file read (not saved)

    def cycle(self, name: str) -> None:
        """Set `name` to its next value."""
        values = CHOICES[name]
        now = getattr(self, name)
        setattr(self, name, values[(values.index(now) + 1) % len(values)] if now in values else values[0])

    def save(self, path: Path | None = None) -> Path:
        from . import atomic
        from .folders import private_folder

        path = path or config_dir() / FILE
        private_folder(path.parent)
        data = {k: v for k, v in asdict(self).items() if k != "problem"}
        atomic.replace_file(path, (json.dumps(data, indent=1) + "\n").encode())  # mode 0o600, whatever the umask
        return path


def load(path: Path | None = None) -> Settings:
    """The settings saved, or the defaults (with `problem` set when the file was bad)."""
    path = path or config_dir() / FILE
    settings = Settings()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return settings
    except (OSError, ValueError) as error:
        settings.problem = f"{path}: not readable ({error}); using the defaults"
        return settings
    if not isinstance(data, dict):
        settings.problem = f"{path}: not a JSON object; using the defaults"
        return settings
    wrong = []
    for f in fields(Settings):
        if f.name in CHOICES and f.name in data:
            if data[f.name] in CHOICES[f.name] and type(data[f.name]) is type(CHOICES[f.name][0]):
                setattr(settings, f.name, data[f.name])
            else:
                wrong.append(f"{f.name}={data[f.name]!r}")
    club = data.get("club", "")
    if isinstance(club, str) and len(club) <= CLUB_NAME:
        settings.club = club
    else:
        wrong.append(f"club={club!r}")
    if wrong:
        settings.problem = f"{path}: ignored {', '.join(wrong)}"
    return settings
