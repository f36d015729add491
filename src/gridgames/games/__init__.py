"""One folder per game: rules (the engine) and, where it applies, ai, solver, generator."""
