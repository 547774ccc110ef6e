"""SQLite persistence: sessions, bankrolls, standings and replays."""
