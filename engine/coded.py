"""An error as data: the rule book's words for it as an English template with named fields
(`{game} is played by {allowed} players, not {given}`), and the fields.

`str(error)` is the English. The engine does not know the product's languages: the product
lists each template in its catalogue and writes the error in the player's language from the
template and the fields (`briscola_tui.engine_words.error_words`); the template is the key.
"""

from __future__ import annotations


class CodedError(ValueError):
    """A `ValueError` carrying its `template` and its `fields` (plain strings and numbers)."""

    def __init__(self, template: str, **fields: object) -> None:
        super().__init__(template.format(**fields))
        self.template = template
        self.fields = fields
