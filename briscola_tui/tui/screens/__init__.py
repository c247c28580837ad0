"""Screens of the Textual client (one .tcss beside each)."""
