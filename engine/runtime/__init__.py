"""Running a game: the frozen game definition, the state and its interpreter, what each seat may see, decisions
and their action ids, randomness, saves."""
