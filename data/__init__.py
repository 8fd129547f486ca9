"""Data shipped with bridgerank, read through ``importlib.resources``: the embedded sample
(``sample/``) and the 2014 WBF ranking lists (``wbf/``)."""
