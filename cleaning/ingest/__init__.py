"""The ``ingest`` stage: readers of PBN, LIN, SQL dumps, Valet travellers and recap pages."""
