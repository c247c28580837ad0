"""What the product keeps on disk: the data and config folders and private files
(`folders`), transcripts and seat stores (`storage`), unfinished offline games
(`saved`) and the player's settings (`settings`)."""
