"""Server-side SVG drawings of each game's board or track (pure functions of the engine's
objects, lengths in millimetres), shared by the print pages and, later, the browser."""
