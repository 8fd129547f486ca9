"""The kernel: errors, settings, the store's engine and base, the ledger, the stage type.

It imports no stage and no other bridgerank package; every other package stands on it.
"""
