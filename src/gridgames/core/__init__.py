"""The shared base: grid geometry, the game protocol, parameters, the portable RNG, errors."""
