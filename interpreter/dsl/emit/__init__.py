"""The resolved tree written out as Python source and compiled into functions: the one
emitter (emitter.py) every generated function goes through, the generator and its
parts, option listings, hoisting and journal notes."""
