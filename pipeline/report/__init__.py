"""The ``report`` stage: one self-contained HTML report and CSV exports."""
