"""Showing a game to a person at a terminal: a seat's view, and what each option of a decision means."""
