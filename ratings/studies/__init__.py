"""The rate stage's studies, each fingerprinted and rerun on its own
(:mod:`bridgerank.core.studies`): the results and the rating families (:mod:`.results`), the
headline on sessions (:mod:`.headline`), the team matches and one-table pairs (:mod:`.teams`)
and who beats whom (:mod:`.cycles`). Each module declares its study and imports, inside its
``run``, only the code that study runs: its code fingerprint is its own."""
