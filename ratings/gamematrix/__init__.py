"""Who beats whom: game-matrix methods (Vadori and Savani 2024, spec section 6).

A game matrix ``P`` holds, for every two players (pairs, teams) ``i`` and ``j``, the
probability that ``i`` beats ``j``; a mask says which entries were observed. The methods here
ask whether "A beats B, B beats C" carries over to "A beats C" (a transitive game, one number
per player can rank it), or whether some players beat each other in a circle (cyclic parts,
which need two more numbers per player per "disc"):

* :mod:`.matrix` - the matrix, its mask, smoothing of counts, hold-out masks, sign accuracy;
* :mod:`.structure` - transitive, cyclic or hybrid; the transitive share of the logits;
* :mod:`.matrix_elo` - Elo ratings of a game (6.2);
* :mod:`.discs` - the real Schur decomposition into disc games (6.4);
* :mod:`.melo` - multidimensional Elo, online and batch (6.3);
* :mod:`.disc_fit` - disc ratings fitted on observed entries only (6.4);
* :mod:`.hyperbolic` - Hyperbolic Elo and its beta search (6.5);
* :mod:`.methods` - one interface over all of them (fit on a masked matrix, reconstruct, score);
* :mod:`.protocol` - held-out entries, each method scored on them;
* :mod:`.synthetic` - games of known make-up (the paper's protocol; run by
  ``benchmarks/bench_gamematrix_synthetic.py``, not by the rate stage);
* :mod:`.bridge_games` - game matrices from bridge results (7(d));
* :mod:`.game_study` - a game described and its methods scored, as the tables store it;
* :mod:`.from_boards` - the rate stage's part: the games of the boards, studied.

Nothing here reads a database.
"""
