"""The club ledger: ratings and statistics built only from transcripts that verify.

No Textual here (the Club screen is `tui/screens/club.py`); it sits beside `tools` in the
product's layers and never imports `net`. See docs/user-guide.md, "The club ledger".
"""
