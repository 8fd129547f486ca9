"""``python -m bridgerank``: the same as the ``bridgerank`` command."""

from bridgerank.pipeline.cli import main

if __name__ == "__main__":
    main()
