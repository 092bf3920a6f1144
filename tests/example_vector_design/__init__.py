# Its command as `graphmem --help` lists it (graphmem/plugin/commands.py).
COMMANDS = {"gists": "How many gists the vector example design wrote in a space."}
