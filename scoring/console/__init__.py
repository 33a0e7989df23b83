"""The room's console: the director's live board of a room, its clock controls and the rounds' progress."""
