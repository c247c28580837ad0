"""Text from elsewhere shown as it is. Textual reads a plain `str` given to `Static`,
`update`, `Label` or `notify` as console markup: a player named `[/]` would stop the
app (MarkupError), one named `[bold]x` would show as a bold "x". Every string that
comes from the network or a file (names, reasons, labels, paths, error texts) reaches a
widget through `literal`: a `rich.text.Text`, never parsed, with its control
characters made visible (`engine.text.visible`), line breaks too, so that one line from
elsewhere stays one line; a text of several lines the app put together from checked
parts keeps its own line breaks with `keep="\n"`."""

from __future__ import annotations

from rich.text import Text

from engine.text import visible


def literal(text: str, style: str = "", keep: str = "") -> Text:
    """`text` to show as it is, in `style` (the control characters in `keep` left as they are)."""
    return Text(visible(text, keep), style)
