"""Revisions, one file each, in the order their ``down_revision`` links give."""
