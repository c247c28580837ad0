"""No class overrides a private method (`_name`) of a class in another module: a class meant to
be extended across modules says so with public methods (as `net.listener.Listener`,
`TableSession`'s `make_*` hooks), and the rest stay free to change.

One base is a template by design: `engine.state.State`, whose private hooks (`_finish`,
`_points`, `_clone_extra`...) each game's state fills in, as OpenSpiel's games fill in
`_apply_action`; they are part of the one state API every game file implements."""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "protocol", "briscola_tui")
TEMPLATES = {"engine.state.State"}
"""Bases whose private hooks subclasses in other modules fill in (see above)."""


def module_names(root: Path, folder: str, prefix: str) -> list[str]:
    names = []
    for path in sorted((root / folder).rglob("*.py")):
        parts = list(path.relative_to(root / folder).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join([prefix, *parts]) if prefix else ".".join(parts))
    return names


def private_overrides(classes) -> list[str]:
    """'module.Class._name overrides base_module.Base._name' for each private method a class
    defines that a base class from another module defines too."""
    found = []
    for cls in classes:
        for name, value in vars(cls).items():
            if not name.startswith("_") or name.startswith("__") or not callable(value):
                continue
            if any(
                name in vars(base) and f"{base.__module__}.{base.__qualname__}" in TEMPLATES for base in cls.__mro__
            ):
                continue  # a template's hook
            for base in cls.__mro__[1:]:
                if name in vars(base):
                    ours = base.__module__.split(".")[0] in (*PACKAGES, "helpers")
                    if ours and base.__module__ != cls.__module__:
                        found.append(
                            f"{cls.__module__}.{cls.__qualname__}.{name} overrides"
                            f" {base.__module__}.{base.__qualname__}.{name}"
                        )
                    break
    return sorted(found)


def project_classes(modules):
    seen = []
    for name in modules:
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == name:
                seen.append(cls)
    return seen


def test_the_check_catches_an_override_across_modules():
    from briscola_tui.net.client import Client
    from engine.games.briscola import BriscolaState

    class Sneaky(Client):
        def _take(self, data):  # the kind of override the app's network client had
            pass

        def _helper(self):  # its own: not an override
            pass

    class Tweaked(BriscolaState):
        def _finish(self):  # a game's hook on the template: allowed
            return super()._finish()

    assert private_overrides([Sneaky, Tweaked]) == [
        f"{__name__}.test_the_check_catches_an_override_across_modules.<locals>.Sneaky._take"
        " overrides briscola_tui.net.client.Client._take"
    ]


def test_no_class_overrides_a_private_method_of_another_module():
    modules = [m for p in PACKAGES for m in module_names(ROOT, p, p)]
    modules = [m for m in modules if not m.endswith("__main__")]
    sys.path.insert(0, str(ROOT / "tests"))
    modules += [m for m in module_names(ROOT / "tests", "helpers", "helpers")]
    assert private_overrides(project_classes(modules)) == []
