"""The rating methods of each kind, one module a kind (``METHODS``, a
:class:`~bridgerank.ratings.registry.Registry`), imported by the study that validates them:
see :mod:`bridgerank.ratings.registry`."""
