"""The app: the ``bridgerank`` command, the stage registry and runner, status, the report."""
