"""Widgets of the Textual client."""
