"""The ``match`` stage: player names matched to the WBF ranking lists."""
