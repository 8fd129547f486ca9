"""The ``clean`` stage: token normalisation, the cleaning rules and their reasons."""
