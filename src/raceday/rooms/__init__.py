"""The room kit: a generic turn-based room and a party room over any game of the protocol
(lobby, seats, start and finish, chance, computer moves, forced moves, undo, the save
format and error mapping). A game's ``room`` module declares only what is its own."""
