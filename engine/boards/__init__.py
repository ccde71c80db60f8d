"""Board files as networkx graphs and the tables precomputed from them, and the drawing hints of game and board
files."""
