"""The terminal kit that every game's ``cli`` face builds on: consoles that fall back to
ASCII, one-line errors with exit code 2, prompts, player names, folders to write to."""
