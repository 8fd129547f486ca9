"""Double dummy analysis: DDS through endplay, play and auction verdicts, player counters."""
